/**
 * The service's per-key limits hold across processes: a full sync in one process (`npm run sync`
 * on the same database, for another shop saved with the same key) and a shop's live changes in
 * another, at once. The emulator counts per account in fixed clock minutes and refuses the 101st
 * request of a minute on Personal (its per-account `rateLimited` count). Each process alone keeps
 * to the limit, so only the window shared through the database keeps the two together under it.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ACCOUNT,
  indexableProduct,
  installShop,
  SECRET_KEYS,
  startLiveEnvironment,
  startTestWorker,
  waitFor,
  waitForEmptyOutbox,
  waitForIndexToEqualStore,
  type LiveEnvironment,
} from "../../../testkit/live-stack";
import { npmCommand } from "../../../testkit/npm-command";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const PER_MINUTE = 100; // Personal (spec §8)
const LIVE_CHANGES = 55;
const OTHER_DOMAIN = "other-store.example.com";
const OTHER_WORKSPACE = "other-store-example-com";
let env: LiveEnvironment;

beforeAll(async () => {
  env = await startLiveEnvironment({ products: 90 });
  await installShop(env);
}, 120_000);

afterAll(async () => {
  await env?.close();
});

/** `npm run sync` in a process of its own, on the test's database and service, the shop's key. */
function runCli(input: string, domain: string) {
  const child = spawn(
    process.execPath,
    [...npmCommand("sync"), "--input", input, "--domain", domain, "--json"],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? "",
        NODE_ENV: "test",
        INDEX_API_URL: env.emulator.url,
        INDEX_SECRET_KEY: SECRET_KEYS[0],
        DATABASE_URL: process.env.DATABASE_URL ?? "",
      },
    },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("close", (code) => resolve({ code, stdout, stderr })),
  );
}

describe("the service's per-key limits, shared by every process", () => {
  it("a full sync in another process and live changes on the same key stay under the tier's limit", async () => {
    // Another shop saved with the same key (another workspace) had a catalogue indexed; its
    // catalogue is now empty, so its next full sync removes all of it: 55 bulk deletes.
    const sentAt = new Date();
    await env.prisma.indexedItem.createMany({
      data: Array.from({ length: 5_500 }, (_, i) => ({
        shopDomain: OTHER_DOMAIN,
        workspaceId: OTHER_WORKSPACE,
        kind: "product",
        itemId: String(900_000 + i),
        contentHash: "sent-before",
        sentAt,
      })),
    });
    const emptyExport = join(mkdtempSync(join(tmpdir(), "rate-window-")), "empty.jsonl");
    writeFileSync(emptyExport, "");
    // 55 live changes of the installed shop, sent one per request.
    for (let i = 0; i < LIVE_CHANGES; i++) {
      const product = indexableProduct(env, i);
      env.shopify.state.updateProduct(product.id, { title: `Paced ${i}` }, { webhook: true });
    }
    await env.shopify.state.settled();

    const account = () => env.emulator.state.account(ACCOUNT)!;
    const refusedBefore = account().rateLimited;
    const requestsBefore = env.emulator.state.requests().length;
    const cli = runCli(emptyExport, OTHER_DOMAIN);
    await waitFor(
      "the other shop's full sync to reach the service",
      () => env.emulator.state.requests().some((r) => r.workspaceId === OTHER_WORKSPACE),
      60_000,
    );
    // The emulator's clock minute starts now, so that both bursts fall in one of its windows:
    // each process alone stays under the limit, the two together would not.
    env.emulator.state.advance(60_000 - (env.emulator.state.now() % 60_000));
    const worker = await startTestWorker({ batchSize: 1, coalesceMs: 0 });
    try {
      const done = await cli;
      expect(done.stderr).toBe("");
      expect(done.code).toBe(0);
      expect(JSON.parse(done.stdout)).toMatchObject({ products: { deleted: 5_500 } });
      await waitForEmptyOutbox(env, 150_000);
      await waitForIndexToEqualStore(env);
    } finally {
      await worker.stop();
    }

    const answered = env.emulator.state
      .requests()
      .slice(requestsBefore)
      .filter((r) => r.account === ACCOUNT && r.status < 300);
    // More than a minute's worth went through on the key, and none was refused for the rate.
    expect(answered.length).toBeGreaterThan(PER_MINUTE);
    expect(account().rateLimited - refusedBefore).toBe(0);
  }, 240_000);
});
