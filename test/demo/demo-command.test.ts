/**
 * `npm run demo` as a person runs it: every port from its environment variable, every URL printed
 * (the fake Shopify Admin API's too) and answering, a clean stop on SIGTERM, and a port that is
 * not a number refused with the variable's name; a mail client that resets its connection does not
 * stop the demo, and stopping leaves no temporary folder behind.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { testPostgresUrl } from "../../testkit/test-database";
import { freePort } from "../../testkit/free-port";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const TSX = path.join(ROOT, "node_modules", ".bin", "tsx");

function runDemo(env: Record<string, string>) {
  // The demo chooses its own mode and database, as from a shell; in the PostgreSQL pass, the
  // run's cluster is the DATABASE_URL it makes its database in.
  const inherited: Record<string, string | undefined> = { ...process.env };
  delete inherited.NODE_ENV;
  delete inherited.DATABASE_URL;
  const postgres = testPostgresUrl();
  if (postgres) inherited.DATABASE_URL = postgres;
  const child = spawn(TSX, ["dev/demo/main.ts"], {
    cwd: ROOT,
    env: { ...inherited, ...env } as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    child,
    exited,
    output: () => stdout,
    errors: () => stderr,
    /** Resolves with the output once it holds `text` (or the process ended). */
    until: (text: string) =>
      new Promise<string>((resolve) => {
        const check = () => {
          if (stdout.includes(text)) resolve(stdout);
        };
        child.stdout.on("data", check);
        void exited.then(() => resolve(stdout));
        check();
      }),
  };
}

/** An SMTP client that starts a message and then resets the connection (as a killed app does). */
async function resetMidMessage(port: number): Promise<void> {
  const socket = connect(port, "127.0.0.1");
  let received = "";
  const reply = (code: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (new RegExp(`^${code} `, "m").test(received)) {
          socket.off("data", onData);
          received = "";
          resolve();
        }
      };
      const onData = (chunk: Buffer) => {
        received += chunk.toString();
        check();
      };
      socket.on("data", onData);
      socket.once("error", reject);
    });
  await reply("220");
  socket.write("EHLO client.test\r\n");
  await reply("250");
  socket.write("MAIL FROM:<shopper@example.com>\r\n");
  await reply("250");
  socket.resetAndDestroy();
  await new Promise((resolve) => socket.once("close", resolve));
}

describe("npm run demo", () => {
  it("listens on the ports its environment names and prints every URL", async () => {
    const ports = {
      PORT: await freePort(),
      EMULATOR_PORT: await freePort(),
      FAKE_SHOPIFY_PORT: await freePort(),
      SMTP_PORT: await freePort(),
      STOREFRONT_PORT: await freePort(),
      MAIL_PORT: await freePort(),
    };
    const demo = runDemo({
      ...Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, String(port)])),
      DEMO_PRODUCTS: "10",
    });
    try {
      const out = await demo.until("Press Ctrl-C to stop.");
      expect(out, demo.errors()).toContain("First full sync finished");
      expect(out).toMatch(
        testPostgresUrl()
          ? /^Database: postgresql:\/\/\*\*\*@127\.0\.0\.1:\d+\/catalog_chat_demo_\w+ /m
          : /^Database: file:\S+demo\.db /m,
      );
      const printed = (label: string) => new RegExp(`^${label}: (\\S+)`, "m").exec(out)?.[1];
      const urls = {
        PORT: printed("Admin"),
        EMULATOR_PORT: printed("Service emulator"),
        FAKE_SHOPIFY_PORT: printed("Fake Shopify Admin API"),
        STOREFRONT_PORT: printed("Storefront preview"),
        MAIL_PORT: printed("Mail the app sent \\(caught locally\\)"),
      };
      for (const [name, url] of Object.entries(urls)) {
        expect(url, name).toBeDefined();
        expect(new URL(url!).port, name).toBe(String(ports[name as keyof typeof ports]));
        expect(new URL(url!).hostname, name).toBe("127.0.0.1");
      }
      expect(urls.FAKE_SHOPIFY_PORT).toMatch(/\/admin\/api\/2026-10\/graphql\.json$/);
      // Each answers: the pages with 200, the Admin API (a GET without a token) with its refusal.
      for (const name of ["PORT", "STOREFRONT_PORT", "MAIL_PORT"] as const) {
        expect((await fetch(urls[name]!)).status, name).toBe(200);
      }
      expect((await fetch(`${urls.EMULATOR_PORT}/__emulator/state`)).status).toBe(200);
      expect((await fetch(urls.FAKE_SHOPIFY_PORT!)).status).toBeLessThan(500);
    } finally {
      demo.child.kill("SIGTERM");
    }
    expect(await demo.exited).toBe(0);
  }, 240_000);

  it("keeps running when a mail client resets its connection, and leaves no folder when stopped", async () => {
    const temporary = mkdtempSync(path.join(tmpdir(), "demo-command-"));
    const smtpPort = await freePort();
    const demoFolders = () =>
      readdirSync(temporary).filter((name) => name.startsWith("catalog-chat-demo-"));
    const demo = runDemo({
      ...Object.fromEntries(
        ["PORT", "EMULATOR_PORT", "FAKE_SHOPIFY_PORT", "STOREFRONT_PORT", "MAIL_PORT"].map(
          (name) => [name, "0"],
        ),
      ),
      SMTP_PORT: String(smtpPort),
      DEMO_PRODUCTS: "10",
      TMPDIR: temporary,
    });
    try {
      const out = await demo.until("Mail the app sent (caught locally): ");
      const mailPage = /^Mail the app sent \(caught locally\): (\S+)/m.exec(out)?.[1];
      expect(mailPage, demo.errors()).toBeDefined();
      expect(demoFolders()).toHaveLength(1);
      // Two resets in the middle of a message: the sink's first error listener was a start-up one.
      await resetMidMessage(smtpPort);
      await resetMidMessage(smtpPort);
      expect((await fetch(mailPage!)).status).toBe(200);
      expect(demo.child.exitCode).toBeNull();
    } finally {
      demo.child.kill("SIGTERM");
    }
    try {
      expect(await demo.exited, demo.errors()).toBe(0);
      expect(demoFolders()).toEqual([]);
    } finally {
      rmSync(temporary, { recursive: true, force: true });
    }
  }, 240_000);

  it("refuses a port that is not a number, naming the variable", async () => {
    const demo = runDemo({ STOREFRONT_PORT: "eighty" });
    expect(await demo.exited).toBe(2);
    expect(demo.errors()).toContain(
      'STOREFRONT_PORT must be a port number from 0 to 65535 (0 picks a free one), not "eighty".',
    );
  }, 60_000);
});
