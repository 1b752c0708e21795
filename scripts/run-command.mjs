/**
 * `npm start`, `npm run worker`, `npm run sync` and `npm run secrets:reencrypt`: runs the app's
 * command NAME (its source in app/cli/) as `npm run build` bundled it
 * (scripts/build-commands.mjs), in this process, with the arguments that follow NAME. Without a
 * build it says so in one line, exit code 2, as the app server does when Remix's build is missing.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = new URL("..", import.meta.url);
const name = process.argv[2] ?? "";
if (!/^[a-z-]+$/.test(name) || !existsSync(new URL(`app/cli/${name}.ts`, root))) {
  console.error(`There is no command "${name}" in app/cli/.`);
  process.exit(2);
}
const bundle = new URL(`build/cli/${name}.js`, root);
if (!existsSync(bundle)) {
  console.error("The app is not built: run `npm run build` first (npm test and npm run demo do).");
  process.exit(2);
}
// From the project's folder, as npm runs its scripts: the default database
// (file:./prisma/app.db) and every relative path mean the same to the command as to the
// migrations it runs.
process.chdir(fileURLToPath(root));
// The command reads its own arguments from process.argv, as when it was started directly.
process.argv.splice(2, 1);
await import(bundle.href);
