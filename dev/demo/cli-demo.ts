/**
 * The main job on embedded defaults, offline: starts the service emulator, writes the sample store
 * (Shopify's documentation test shop plus a generated catalogue) as a bulk export, syncs it with
 * the app's own sync command, and asks the index a question.
 *
 *   npm run demo
 */
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runSyncCommand } from "../../app/cli/sync-command";
import { IndexServiceClient } from "../../app/index-service/client";
import { startEmulator } from "../emulator/server";
import { writeCatalogue } from "../sample-store/catalogue-generator";
import { configureLogging } from "../../app/server/log";

configureLogging({ fd: 2, format: "pretty" });

const DOMAIN = "demo-store.example.com";
const SECRET_KEY = "svc_sk_test_professional";
const PUBLISHABLE_KEY = "svc_pk_test_professional";
const QUESTION = process.env.DEMO_QUESTION ?? "warm wool sweater";

const emulator = await startEmulator({ port: Number(process.env.EMULATOR_PORT ?? 0) });
console.log(`Service emulator: ${emulator.url}`);
try {
  const work = mkdtempSync(join(tmpdir(), "catalog-chat-demo-"));
  const generated = join(work, "generated-store.jsonl");
  const summary = await writeCatalogue(
    { products: 600, pages: 12, articles: 24, seed: 2026, domain: DOMAIN },
    generated,
  );
  const docsShop = join(import.meta.dirname, "..", "sample-store", "shopify-docs-shop.jsonl");
  const inputs = [docsShop, generated].filter((file) => existsSync(file));
  console.log(
    `Sample store: ${summary.products} generated products, ${summary.pages} pages, ${summary.articles} articles` +
      (inputs.includes(docsShop) ? " + Shopify's documentation test shop" : ""),
  );

  // A fresh emulator holds nothing, so the demo keeps its ledger in a fresh database too.
  const code = await runSyncCommand(
    [...inputs.flatMap((file) => ["--input", file]), "--domain", DOMAIN],
    {
      INDEX_API_URL: emulator.url,
      INDEX_SECRET_KEY: SECRET_KEY,
      DATABASE_URL: process.env.DATABASE_URL ?? `file:${join(work, "demo.db")}`,
    },
    { stdout: process.stdout, stderr: process.stderr },
  );
  if (code !== 0) process.exitCode = code;

  const shopper = new IndexServiceClient({
    baseUrl: emulator.url,
    apiKey: PUBLISHABLE_KEY,
    workspaceId: DOMAIN,
  });
  const { data } = await shopper.search(QUESTION);
  console.log(`\nA shopper searches "${QUESTION}" (publishable key): ${data.total} results`);
  for (const hit of data.results.slice(0, 5)) {
    const price = typeof hit.price === "number" ? ` — ${hit.price.toFixed(2)}` : "";
    console.log(`  ${hit.name ?? hit.id}${price}  ${hit.url ?? ""}`);
  }
} finally {
  await emulator.close();
}
