/**
 * npx tsx dev/sample-store/generate.ts --products N --pages N --articles N --seed S --out file.jsonl
 * Writes a generated shop's bulk exports (products, pages, articles) as one JSONL file.
 */
import { parseArgs } from "node:util";
import { writeCatalogue } from "./catalogue-generator";

const { values } = parseArgs({
  options: {
    products: { type: "string", default: "100" },
    pages: { type: "string", default: "10" },
    articles: { type: "string", default: "10" },
    seed: { type: "string", default: "1" },
    "late-rate": { type: "string", default: "0.02" },
    out: { type: "string" },
  },
});

function count(name: string, value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) {
    console.error(`--${name} must be a whole number, got "${value}"`);
    process.exit(2);
  }
  return number;
}

if (!values.out) {
  console.error("--out <file.jsonl> is required");
  process.exit(2);
}

const started = performance.now();
const summary = await writeCatalogue(
  {
    products: count("products", values.products),
    pages: count("pages", values.pages),
    articles: count("articles", values.articles),
    seed: values.seed,
    lateChildRate: Number(values["late-rate"]),
  },
  values.out,
);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
  `${values.out}: ${summary.lines} lines — ${summary.products} products (${summary.variants} variants, ` +
    `${summary.lateChildren} late children), ${summary.pages} pages, ${summary.articles} articles in ${seconds} s`,
);
