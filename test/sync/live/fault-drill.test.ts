/**
 * The standing fault drill (bench/fault-drill.bench.ts) in a tiny configuration, so that it keeps
 * running: a dozen deliveries, one fault burst, one kill -9, (on SQLite) one write lock held
 * by another process, and four shoppers' contact requests with the mail server down for a stretch
 * in each mode, in-app and separate worker. It exits 1 when a change or a notification email was
 * lost, the index differs from the store, or /metrics disagrees with what the drill read itself.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { expect, it } from "vitest";
import { onPostgres } from "../../../testkit/test-database";
import { requireCurrentBuild } from "../../../testkit/live-stack";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const TINY = [
  "--products",
  "12",
  "--webhooks",
  "12",
  "--kills",
  "1",
  "--bursts",
  "1",
  "--locks",
  "1",
  "--shoppers",
  "4",
  "--seconds",
  "6",
  // Held past the app's 3 s busy wait (BUSY_TIMEOUT_MS): writes fail while it lasts.
  "--lock-s",
  "4",
  // The kills and the stream are what this tests, not the waits around them: a killed worker's
  // shop lease, the coalescing window, the polls and the handoff request's wait, kept short.
  "--lease-ms",
  "1500",
  "--coalesce-ms",
  "200",
  "--poll-ms",
  "100",
  "--handoff-wait-s",
  "1",
  "--mail-poll-s",
  "0.2",
];

it("the fault drill, tiny: no change and no notification email lost, the index equals the store, in both modes", async () => {
  requireCurrentBuild();
  const drill = spawn(
    process.execPath,
    ["--import", "tsx", "bench/fault-drill.bench.ts", ...TINY],
    {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  drill.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  drill.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => drill.once("exit", resolve));

  for (const mode of ["in-app worker", "separate worker"]) {
    expect(output).toMatch(
      new RegExp(`${mode}\\s+outbox empty: yes .* index equals store: yes .* changes lost 0 `),
    );
  }
  expect(output).toMatch(/12 of 12 delivered/);
  // Every shopper's contact request reached the merchant's mailbox, in both modes, though the
  // mail server was down while at least one email was due.
  expect(output.match(/notifications owed 4 \(one per contact request\)/g)).toHaveLength(2);
  expect(output.match(/notifications lost 0 \(/g)).toHaveLength(2);
  expect(output.match(/mail server down [\d.]+ s, [1-9]\d* sends failed/g)).toHaveLength(2);
  expect(output).toMatch(/kill -9: app\b/);
  expect(output).toMatch(/faults met [1-9]\d* of/);
  // On SQLite another process held the write lock past the busy timeout: nothing stayed wedged.
  if (!onPostgres())
    expect(output).toMatch(
      /SQLite locks held by another process: 1, app\/scopes_update after each answered: 1 of 1/,
    );
  // The same figures as an operator's scrape of /metrics shows them, agreeing with the drill's.
  expect(
    output.match(/\/metrics \(scraped as an operator.*: outbox 0 rows, oldest change 0\.0 s/g),
  ).toHaveLength(2);
  expect(output).toMatch(/\/metrics: 429 waits \d+/);
  expect(output).not.toMatch(/DISAGREE|scrape FAILED/);
  expect(code, output).toBe(0);
}, 180_000);
