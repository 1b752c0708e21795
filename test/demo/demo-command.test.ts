/**
 * `npm run demo` as a person runs it: every port from its environment variable, every URL printed
 * (the fake Shopify Admin API's too) and answering, a clean stop on SIGTERM, and a port that is
 * not a number refused with the variable's name.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { demoPostgresUrl } from "../support/demo-browser";
import { freePort } from "../support/free-port";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const TSX = path.join(ROOT, "node_modules", ".bin", "tsx");

function runDemo(env: Record<string, string>) {
  // The demo chooses its own mode and database, as from a shell; in the PostgreSQL pass, the
  // run's cluster is the DATABASE_URL it makes its database in.
  const inherited: Record<string, string | undefined> = { ...process.env };
  delete inherited.NODE_ENV;
  delete inherited.DATABASE_URL;
  const postgres = demoPostgresUrl();
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
        demoPostgresUrl()
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

  it("refuses a port that is not a number, naming the variable", async () => {
    const demo = runDemo({ STOREFRONT_PORT: "eighty" });
    expect(await demo.exited).toBe(2);
    expect(demo.errors()).toContain(
      'STOREFRONT_PORT must be a port number from 0 to 65535 (0 picks a free one), not "eighty".',
    );
  }, 60_000);
});
