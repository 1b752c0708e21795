// `npm test` runs on the Node that package.json's engines names: the Shopify packages require 22.
// `npm ci` installs it into node_modules (the `node` package), and npm puts node_modules/.bin
// first on every script's PATH, so this fails only when that install is missing.
import { readFileSync } from "node:fs";

const wanted = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).engines
  .node;
const minimum = Number(/\d+/.exec(wanted)?.[0]);
const major = Number(process.versions.node.split(".")[0]);
if (major < minimum) {
  console.error(
    `Node ${process.versions.node} runs the tests, but the project needs ${wanted}: run \`npm ci\` (it installs Node 22 into node_modules) and start the tests with \`npm test\`.`,
  );
  process.exit(2);
}
console.log(`Node ${process.versions.node} (${process.execPath})`);
