import { spawn } from "node:child_process";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..");

/**
 * The least environment a README command is started with in these tests: a PATH, a HOME and the
 * app's Shopify settings, with `extra` on top (nothing else of this process's environment).
 */
export function commandEnvironment(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "/tmp",
    SHOPIFY_API_KEY: "key",
    SHOPIFY_API_SECRET: "secret",
    SHOPIFY_APP_URL: "https://app.example.com",
    ...extra,
  };
}

/**
 * Runs `node COMMAND...` from the project's root (or `cwd`) to its end, with exactly `env`; one
 * still running after 20 s is killed with its children. Its exit code and what it wrote to stderr.
 */
export function runCommand(
  command: string[],
  env: Record<string, string>,
  cwd: string = ROOT,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, command, {
      cwd,
      env: env as NodeJS.ProcessEnv,
      detached: true,
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.resume();
    const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 20_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}
