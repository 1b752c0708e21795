/**
 * npx tsx dev/sample-store/convert-docs-shop.ts [--fixtures dir] [--out file.jsonl]
 * Rewrites dev/sample-store/shopify-docs-shop.jsonl from Shopify's REST fixtures.
 */
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { docsShopLines, loadDocsShopFixtures } from "./docs-shop";

const { values } = parseArgs({
  options: {
    fixtures: { type: "string", default: "test/fixtures/shopify/rest-admin" },
    out: { type: "string", default: "dev/sample-store/shopify-docs-shop.jsonl" },
  },
});

const lines = docsShopLines(loadDocsShopFixtures(values.fixtures));
writeFileSync(values.out, lines.map((line) => `${line}\n`).join(""));
console.log(`${values.out}: ${lines.length} lines from ${values.fixtures}`);
