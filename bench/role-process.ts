import { spawn, type ChildProcess } from "node:child_process";

/**
 * Runs `script` again in a process of its own with `--role <role>` and resolves once that process
 * prints `ready <url>`. `nodeArgs` go to Node itself (e.g. `--cpu-prof`).
 */
export function startRoleProcess(
  script: string,
  role: string,
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", script, "--role", role], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /ready (\S+)/.exec(out);
      if (match?.[1]) resolve({ child, url: match[1] });
    });
    child.once("exit", (code) => reject(new Error(`the ${role} process exited (${code})`)));
  });
}

/** Stops a role process with SIGTERM and waits for it to exit. */
export function stopRoleProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}
