import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generatedStore, indexableProductIds, writeExport } from "../../testkit/catalogue-files";
import { freePort } from "../../testkit/free-port";
import {
  contentWrites,
  indexedIds,
  startTestEmulator,
  type RunningEmulator,
} from "../../testkit/emulator";
import { npmCommand } from "../../testkit/npm-command";

const ROOT = join(__dirname, "..", "..");
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startTestEmulator();
});
afterAll(async () => {
  await emulator.close();
});

const freshDatabase = () => `file:${join(mkdtempSync(join(tmpdir(), "sync-cli-")), "cli.db")}`;

function startCli(
  args: string[],
  env: Record<string, string> = {},
): {
  child: ChildProcessWithoutNullStreams;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
} {
  const child = spawn(process.execPath, [...npmCommand("sync"), ...args], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "test",
      INDEX_API_URL: emulator.url,
      INDEX_SECRET_KEY: "svc_sk_test_enterprise",
      DATABASE_URL: freshDatabase(),
      ...env,
    },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("close", (code) => resolve({ code, stdout, stderr })),
  );
  return { child, done };
}

const runCli = (args: string[], env?: Record<string, string>) => startCli(args, env).done;

describe("npm run sync", () => {
  it("prints nothing but one JSON line with --json, and exits 0", async () => {
    const store = generatedStore({ products: 130, pages: 4, articles: 4, seed: 31 });
    const { code, stdout, stderr } = await runCli([
      "--input",
      writeExport(store),
      "--domain",
      "cli-one.example.com",
      "--json",
    ]);
    expect(stderr).not.toMatch(/Error/);
    expect(code).toBe(0);
    const lines = stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const summary = JSON.parse(lines[0]!);
    expect(Object.keys(summary)).toEqual([
      "workspaceId",
      "tier",
      "products",
      "posts",
      "requests",
      "rateLimited",
      "durationMs",
    ]);
    expect(summary).toMatchObject({
      workspaceId: "cli-one-example-com",
      tier: "enterprise",
      products: {
        sent: indexableProductIds(store).length,
        unchanged: 0,
        deleted: 0,
        overQuota: 0,
        failed: 0,
      },
      rateLimited: 0,
    });
    expect(indexedIds(emulator, "enterprise", "cli-one-example-com").products).toHaveLength(
      indexableProductIds(store).length,
    );
  });

  it("exits 2 with the usage for bad arguments, missing configuration or an unreadable file", async () => {
    const missingDomain = await runCli(["--input", "x.jsonl"]);
    expect(missingDomain.code).toBe(2);
    expect(missingDomain.stderr).toMatch(/--domain <storefront domain> is required/);
    expect(missingDomain.stderr).toMatch(/Usage: npm run sync/);

    const badTier = await runCli([
      "--input",
      writeExport([]),
      "--domain",
      "a.example",
      "--tier",
      "gold",
    ]);
    expect(badTier.code).toBe(2);
    expect(badTier.stderr).toMatch(
      /--tier must be one of personal, starter, professional, enterprise/,
    );

    const noKey = await runCli(["--input", writeExport([]), "--domain", "a.example"], {
      INDEX_SECRET_KEY: "",
    });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/INDEX_SECRET_KEY is not set/);

    const unreadable = await runCli([
      "--input",
      "/nonexistent/file.jsonl",
      "--domain",
      "a.example",
    ]);
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toMatch(
      /cannot read --input \/nonexistent\/file.jsonl: there is no such file/,
    );
  });

  it("without INDEX_API_URL, uses the README's default (the emulator on 127.0.0.1:4010) outside production", async () => {
    const input = writeExport(generatedStore({ products: 2, seed: 34 }));
    const { code, stderr } = await runCli(["--input", input, "--domain", "cli-default.example"], {
      INDEX_API_URL: "",
    });
    expect(stderr).not.toMatch(/INDEX_API_URL is not set/);
    expect(code).not.toBe(2);
    // Unless something else on this machine answers there, the message names the URL it tried.
    if (code !== 0) expect(stderr).toMatch(/http:\/\/127\.0\.0\.1:4010/);
    const production = await runCli(["--input", input, "--domain", "cli-default.example"], {
      INDEX_API_URL: "",
      NODE_ENV: "production",
    });
    expect(production.code).toBe(2);
    expect(production.stderr).toMatch(/INDEX_API_URL is not set/);
  });

  it("--help prints the usage on stdout and exits 0", async () => {
    const { code, stdout, stderr } = await runCli(["--help"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: npm run sync/);
    expect(stderr).toBe("");
  });

  it("names the service's URL and what to check when it cannot be reached", async () => {
    const closed = await freePort();
    const url = `http://127.0.0.1:${closed}`;
    const { code, stderr } = await runCli(
      ["--input", writeExport(generatedStore({ products: 3, seed: 35 })), "--domain", "a.example"],
      { INDEX_API_URL: url },
    );
    expect(code).toBe(1);
    expect(stderr).toContain(`the search service at ${url} could not be reached`);
    expect(stderr).toMatch(/Check INDEX_API_URL/);
  });

  it("the service's webhook list failing cannot fail a sync", async () => {
    emulator.state.injectFault({ status: 500, count: 50, match: { path: "/webhooks" } });
    try {
      const store = generatedStore({ products: 5, seed: 36 });
      const { code, stderr } = await runCli([
        "--input",
        writeExport(store),
        "--domain",
        "cli-webhooks.example.com",
      ]);
      expect(stderr).toBe("");
      expect(code).toBe(0);
      expect(indexedIds(emulator, "enterprise", "cli-webhooks-example-com").products).toEqual(
        indexableProductIds(store).sort(),
      );
    } finally {
      emulator.state.clearFaults();
    }
  });

  it("exits 2 naming the malformed line, and sends nothing", async () => {
    emulator.state.clearRequests();
    const lines = generatedStore({ products: 3, seed: 32 }).map((l) => JSON.stringify(l));
    lines.splice(2, 0, "{not json");
    const { code, stderr } = await runCli([
      "--input",
      writeExport(lines),
      "--domain",
      "cli-bad.example.com",
    ]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/Line 3 of the bulk export is not a JSON object/);
    expect(stderr).toMatch(/Nothing was sent/);
    expect(contentWrites(emulator)).toHaveLength(0);
  });

  it("exits 1 with the reason when the service refuses the key, and never prints the key", async () => {
    const { code, stderr, stdout } = await runCli(
      [
        "--input",
        writeExport(generatedStore({ products: 3, seed: 33 })),
        "--domain",
        "cli-revoked.example.com",
        "--tier",
        "personal",
      ],
      { INDEX_SECRET_KEY: "svc_sk_test_revoked" },
    );
    expect(code).toBe(1);
    expect(stderr).toMatch(/The sync stopped: the search service at .* refused the secret key/);
    expect(stderr).toMatch(/Check INDEX_SECRET_KEY/);
    // The key check's request is the service's business, not the operator's.
    expect(stderr).not.toMatch(/products\/bulk|DELETE/);
    expect(stderr + stdout).not.toContain("svc_sk_test_revoked");
  });

  it("a run killed in the middle of a batch continues after restart without resending acknowledged batches", async () => {
    const store = generatedStore({ products: 700, seed: 34 });
    const file = writeExport(store);
    const database = freshDatabase();
    const domain = "cli-killed.example.com";
    const workspace = "cli-killed-example-com";
    const batches = Math.ceil(indexableProductIds(store).length / 100);
    const posts = () =>
      contentWrites(emulator).filter(
        (w) => w.workspaceId === workspace && w.method === "POST" && w.status === 200,
      );

    const first = startCli(["--input", file, "--domain", domain], { DATABASE_URL: database });
    // Once two batches are acknowledged, hold the next one at the service and kill the sender.
    await until(() => posts().length >= 2);
    emulator.state.injectFault({
      delayMs: 2000,
      count: 1,
      match: { method: "POST", path: "/products/bulk" },
    });
    await until(() => emulator.state.faults().length === 0);
    first.child.kill("SIGKILL");
    await first.done;
    const acknowledgedBeforeKill = posts().length;
    expect(acknowledgedBeforeKill).toBeLessThan(batches);

    const second = await runCli(["--input", file, "--domain", domain, "--json"], {
      DATABASE_URL: database,
    });
    expect(second.code).toBe(0);
    const summary = JSON.parse(second.stdout);
    expect(summary.products.sent).toBe(indexableProductIds(store).length);
    expect(indexedIds(emulator, "enterprise", workspace).products).toEqual(
      indexableProductIds(store).sort(),
    );
    // At most the one batch in flight at the kill is sent twice (same content: no change).
    expect(posts().length).toBeLessThanOrEqual(batches + 1);
    expect(posts().length - acknowledgedBeforeKill).toBeLessThanOrEqual(
      batches - acknowledgedBeforeKill + 1,
    );
  });
});

async function until(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
