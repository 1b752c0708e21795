/**
 * The widget's markdown parser against the regex parser it replaced (bench/baseline/), on
 * hostile runs of openers that never close and on a long ordinary answer:
 *   npx tsx bench/markdown.bench.ts
 * Prints figures (median of 5 runs each); asserts nothing (test/widget/units.test.ts holds the
 * linear-time bound, test/widget/streaming.test.ts the streaming cost).
 */
import { parseBlocks as regexParse } from "./baseline/markdown-regex";
import { parseBlocks } from "../widget/markdown";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function time(parse: (text: string) => unknown, text: string): number {
  const runs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    parse(text);
    runs.push(performance.now() - started);
  }
  return median(runs);
}

const answer = Array.from(
  { length: 200 },
  (_, i) => `- **Mug ${i}**: a *stoneware* mug, see [it](https://shop.example/products/mug-${i})`,
).join("\n");

const cases: [string, string, boolean][] = [
  ['"*a " × 2,000', "*a ".repeat(2_000), true],
  ['"*a " × 8,000 (issue 16)', "*a ".repeat(8_000), true],
  ['"*a " × 16,000', "*a ".repeat(16_000), true],
  ['"*a " × 200,000', "*a ".repeat(200_000), false],
  ['"[" × 8,000 + "a](" + "(" × 8,000', "[".repeat(8_000) + "a](" + "(".repeat(8_000), true],
  ["ordinary answer, 200 list items", answer, true],
];

console.log(`Node ${process.version}`);
console.log(
  `${"input".padEnd(40)} ${"chars".padStart(8)} ${"regex (before)".padStart(16)} ${"now".padStart(10)}`,
);
for (const [label, text, withBaseline] of cases) {
  const before = withBaseline ? `${time(regexParse, text).toFixed(1)} ms` : "(minutes)";
  console.log(
    `${label.padEnd(40)} ${String(text.length).padStart(8)} ${before.padStart(16)} ${`${time(parseBlocks, text).toFixed(1)} ms`.padStart(10)}`,
  );
}
