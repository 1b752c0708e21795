import { spawn, type ChildProcess } from "node:child_process";

/**
 * Runs `script` again in a process of its own with `--role <role>` and resolves once that process
 * prints `ready <url>` (or what `ready` matches, the URL its first group). `nodeArgs` go to Node
 * itself (e.g. `--cpu-prof`).
 */
export function startRoleProcess(
  script: string,
  role: string,
  env: Record<string, string>,
  nodeArgs: string[] = [],
  ready: RegExp = /ready (\S+)/,
): Promise<{ child: ChildProcess; url: string }> {
  return startUntilReady([...nodeArgs, "--import", "tsx", script, "--role", role], env, ready);
}

/**
 * Runs `node ARGS…` (e.g. a README command, ./npm-command.ts) and resolves once its standard
 * output matches `ready`, whose first group is the URL it serves on.
 */
export function startUntilReady(
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const name = args.filter((arg) => !arg.startsWith("-")).join(" ");
  return new Promise((resolve, reject) => {
    let out: string | null = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      if (out === null) return; // ready already; later output is only drained
      out += chunk.toString();
      const match = ready.exec(out);
      if (match?.[1]) {
        out = null;
        resolve({ child, url: match[1] });
      }
    });
    child.once("exit", (code) => reject(new Error(`${name} exited (${code})`)));
  });
}

/** Stops a role process with SIGTERM and waits for it to exit. */
export function stopRoleProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}
