/**
 * The operator's view of a bad configuration: the built server (`npm start`: app/cli/serve.ts
 * on build/) and `npm run worker`, started as real processes, each print the one message listing
 * every problem, no stack trace, and exit with code 2. The worker runs as production by default.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createMigratedDatabase } from "../testkit/test-database";
import { commandEnvironment, runCommand } from "../testkit/run-command";
import { npmCommand } from "../testkit/npm-command";

let base: Record<string, string>;

beforeAll(async () => {
  const db = await createMigratedDatabase();
  base = commandEnvironment({
    DATABASE_URL: db.url,
    PORT: "0",
  });
}, 60_000);

const unsafe = {
  INDEX_API_URL: "http://10.0.0.5",
  ENCRYPTION_KEY: Buffer.alloc(32).toString("base64"),
};

function expectOneMessage(result: Awaited<ReturnType<typeof runCommand>>, problems: RegExp[]) {
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/The app cannot start: its configuration has \d+ problems?/);
  for (const problem of problems) expect(result.stderr).toMatch(problem);
  expect(result.stderr).not.toMatch(/^\s+at /m);
}

describe("npm run worker", () => {
  const worker = npmCommand("worker");

  it("refuses plain http to a non-loopback service and an all-zero key, in one message", async () => {
    const result = await runCommand(worker, { ...base, NODE_ENV: "production", ...unsafe });
    expectOneMessage(result, [/INDEX_API_URL must use https/, /ENCRYPTION_KEY is not a usable/]);
  });

  it("runs as production without NODE_ENV: no development key, no default local service", async () => {
    const result = await runCommand(worker, base);
    expectOneMessage(result, [/ENCRYPTION_KEY is missing/, /INDEX_API_URL is missing/]);
  });
});

describe("the built server (npm start)", () => {
  it("refuses the same configuration with the same message and exit code", async () => {
    const result = await runCommand(npmCommand("start"), {
      ...base,
      NODE_ENV: "production",
      ...unsafe,
    });
    expectOneMessage(result, [/INDEX_API_URL must use https/, /ENCRYPTION_KEY is not a usable/]);
  });
});
