/**
 * A port already in use, as an operator meets it: `npm start` (app/cli/serve.ts on the build)
 * and `npm run worker` with WORKER_PORT print one line naming the port and the variable to set,
 * no stack trace, and exit with code 2.
 */
import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireCurrentBuild } from "../../testkit/live-stack";
import { createMigratedDatabase } from "../../testkit/test-database";
import { commandEnvironment, runCommand } from "../../testkit/run-command";
import { npmCommand } from "../../testkit/npm-command";

let base: Record<string, string>;
let occupied: Server;
let port: number;

beforeAll(async () => {
  requireCurrentBuild();
  const db = await createMigratedDatabase();
  base = commandEnvironment({
    NODE_ENV: "test",
    DATABASE_URL: db.url,
    BACKGROUND_WORK: "off",
  });
  // Every interface, as `npm start` and the worker listen.
  occupied = createServer();
  await new Promise<void>((resolve) => occupied.listen(0, resolve));
  const address = occupied.address();
  port = typeof address === "object" && address ? address.port : 0;
}, 60_000);

afterAll(() => new Promise<void>((resolve) => occupied?.close(() => resolve())));

function expectOneLine(result: Awaited<ReturnType<typeof runCommand>>, variable: string) {
  expect(result.code).toBe(2);
  expect(result.stderr.trim().split("\n")).toEqual([
    `Port ${port} is already in use by another process: stop that process, or set ${variable} to a free port.`,
  ]);
}

describe("a port already in use", () => {
  it("npm start: one line naming PORT, exit code 2", async () => {
    const result = await runCommand(npmCommand("start"), {
      ...base,
      PORT: String(port),
    });
    expectOneLine(result, "PORT");
  }, 30_000);

  it("npm start with a PORT that is no port: one line naming PORT, exit code 2", async () => {
    for (const bad of ["abc", "70000", "-1", "3.5"]) {
      const result = await runCommand(npmCommand("start"), { ...base, PORT: bad });
      expect(result.code).toBe(2);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
      expect(result.stderr).toMatch(/^PORT must be a port number from 0 to 65535, got "/);
    }
  }, 60_000);

  it("npm run worker: one line naming WORKER_PORT, exit code 2", async () => {
    const result = await runCommand(npmCommand("worker"), {
      ...base,
      WORKER_PORT: String(port),
    });
    expectOneLine(result, "WORKER_PORT");
  }, 30_000);
});
