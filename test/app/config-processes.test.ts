/**
 * The operator's view of a bad configuration: the built server (`npm start`: app/cli/serve.ts
 * on build/) and `npm run worker`, started as real processes, each print the one message listing
 * every problem, no stack trace, and exit with code 2. The worker runs as production by default.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createMigratedDatabase } from "../support/test-database";

const ROOT = join(import.meta.dirname, "..", "..");
let base: Record<string, string>;

beforeAll(async () => {
  const db = await createMigratedDatabase();
  base = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "/tmp",
    DATABASE_URL: db.url,
    SHOPIFY_API_KEY: "key",
    SHOPIFY_API_SECRET: "secret",
    SHOPIFY_APP_URL: "https://app.example.com",
    PORT: "0",
  };
}, 60_000);

const unsafe = {
  INDEX_API_URL: "http://10.0.0.5",
  ENCRYPTION_KEY: Buffer.alloc(32).toString("base64"),
};

/** Runs a command to its end; one still running after 20 s (it started) is killed with its children. */
function run(command: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, command, {
      cwd: ROOT,
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

function expectOneMessage(result: Awaited<ReturnType<typeof run>>, problems: RegExp[]) {
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/The app cannot start: its configuration has \d+ problems?/);
  for (const problem of problems) expect(result.stderr).toMatch(problem);
  expect(result.stderr).not.toMatch(/^\s+at /m);
}

describe("npm run worker", () => {
  const worker = ["--import", "tsx", "app/cli/worker.ts"];

  it("refuses plain http to a non-loopback service and an all-zero key, in one message", async () => {
    const result = await run(worker, { ...base, NODE_ENV: "production", ...unsafe });
    expectOneMessage(result, [/INDEX_API_URL must use https/, /ENCRYPTION_KEY is not a usable/]);
  });

  it("runs as production without NODE_ENV: no development key, no default local service", async () => {
    const result = await run(worker, base);
    expectOneMessage(result, [/ENCRYPTION_KEY is missing/, /INDEX_API_URL is missing/]);
  });
});

describe("the built server (npm start)", () => {
  it("refuses the same configuration with the same message and exit code", async () => {
    const result = await run(["--import", "tsx", "app/cli/serve.ts"], {
      ...base,
      NODE_ENV: "production",
      ...unsafe,
    });
    expectOneMessage(result, [/INDEX_API_URL must use https/, /ENCRYPTION_KEY is not a usable/]);
  });
});
