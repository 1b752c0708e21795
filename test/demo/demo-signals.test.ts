/**
 * Stopping `npm run demo` as people do: Ctrl-C in a terminal (SIGINT to the whole process group:
 * npm, the demo and the transpiler's service alike), in the middle of the first sync, and SIGTERM
 * to npm alone (a process manager, `kill`). Either way npm exits 0 within 10 s, no process of the
 * demo is left, every port it printed is free, and its temporary folder is gone.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { testPostgresUrl } from "../../testkit/test-database";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const EXIT_WITHIN_MS = 10_000;
const temporaries: string[] = [];

afterEach(() => {
  for (const folder of temporaries.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** `npm run demo` in a process group of its own, as a terminal starts it. */
function runDemo() {
  const temporary = mkdtempSync(path.join(tmpdir(), "demo-signals-"));
  temporaries.push(temporary);
  const inherited: Record<string, string | undefined> = { ...process.env };
  delete inherited.NODE_ENV;
  delete inherited.DATABASE_URL;
  const postgres = testPostgresUrl();
  if (postgres) inherited.DATABASE_URL = postgres;
  const ports = ["PORT", "EMULATOR_PORT", "FAKE_SHOPIFY_PORT", "SMTP_PORT", "STOREFRONT_PORT"];
  const child = spawn("npm", ["run", "demo"], {
    cwd: ROOT,
    env: {
      ...inherited,
      ...Object.fromEntries([...ports, "MAIL_PORT"].map((name) => [name, "0"])),
      DEMO_PRODUCTS: "10",
      TMPDIR: temporary,
    } as unknown as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    child,
    exited,
    output: () => output,
    demoFolders: () => readdirSync(temporary).filter((name) => name.startsWith("catalog-chat-")),
    until: (text: string) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (output.includes(text)) resolve();
        };
        child.stdout.on("data", check);
        void exited.then(() => reject(new Error(`the demo ended before "${text}":\n${output}`)));
        check();
      }),
  };
}

/** The ports of every URL the demo printed. */
function printedPorts(output: string): number[] {
  return [...output.matchAll(/http:\/\/127\.0\.0\.1:(\d+)/g)].map((match) => Number(match[1]));
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Whether any process of the group is still there. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The command lines of the group's processes still running. */
function leftOver(pgid: number): string[] {
  if (!groupAlive(pgid)) return [];
  return execFileSync("ps", ["-o", "pid=,args=", "-g", String(pgid)], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.trim() !== "");
}

async function expectStoppedCleanly(demo: ReturnType<typeof runDemo>, ports: number[]) {
  const code = await Promise.race([
    demo.exited,
    new Promise<"still running">((resolve) =>
      setTimeout(() => resolve("still running"), EXIT_WITHIN_MS),
    ),
  ]);
  expect(code, demo.output()).toBe(0);
  expect(demo.output()).not.toMatch(/TransformError|service is no longer running/);
  // The transpiler's service ends once the demo's process is gone: a moment after npm.
  const at = Date.now();
  while (groupAlive(demo.child.pid!) && Date.now() - at < 2_000) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(leftOver(demo.child.pid!), "a process of the demo is left").toEqual([]);
  expect(ports.length).toBeGreaterThanOrEqual(5);
  for (const port of ports) expect(await portAnswers(port), `port ${port}`).toBe(false);
  expect(demo.demoFolders()).toEqual([]);
}

describe("stopping npm run demo", () => {
  it("Ctrl-C (SIGINT to the process group) during the first sync", async () => {
    const demo = runDemo();
    try {
      await demo.until("removed when the demo stops");
      expect(demo.demoFolders()).toHaveLength(1);
      const ports = printedPorts(demo.output());
      process.kill(-demo.child.pid!, "SIGINT");
      await expectStoppedCleanly(demo, ports);
    } finally {
      if (groupAlive(demo.child.pid!)) process.kill(-demo.child.pid!, "SIGKILL");
    }
  }, 240_000);

  it("SIGTERM to npm alone, once it serves", async () => {
    const demo = runDemo();
    try {
      await demo.until("Press Ctrl-C to stop.");
      expect(demo.demoFolders()).toHaveLength(1);
      const ports = printedPorts(demo.output());
      demo.child.kill("SIGTERM");
      await expectStoppedCleanly(demo, ports);
    } finally {
      if (groupAlive(demo.child.pid!)) process.kill(-demo.child.pid!, "SIGKILL");
    }
  }, 240_000);
});
