/**
 * What a README command runs, read from package.json: tests that stand for an operator's command
 * (`npm start`, `npm run worker`, `npm run sync`) start exactly that, the commands as `npm run
 * build` bundled them (scripts/build-commands.mjs), under plain `node`.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { newestChangeUnder } from "../dev/newest-change";

const ROOT = join(import.meta.dirname, "..");

type Command = "start" | "worker" | "sync" | "secrets:reencrypt";

/** `node`'s arguments for `npm run <name>`, whose script runs a bundled command. */
export function npmCommand(name: Command): string[] {
  const scripts = (
    JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    }
  ).scripts;
  const match = /^(?:exec )?node (scripts\/run-command\.mjs) ([a-z-]+)$/.exec(scripts[name] ?? "");
  if (!match)
    throw new Error(
      `package.json's ${name} script is not "node scripts/run-command.mjs <command>"`,
    );
  requireBuiltCommand(`build/cli/${match[2]}.js`);
  return [match[1]!, match[2]!];
}

const checked = new Set<string>();

/** The bundle exists and is newer than the app's sources: a test never runs an older build. */
function requireBuiltCommand(file: string): void {
  if (checked.has(file)) return;
  const path = join(ROOT, file);
  if (!existsSync(path)) {
    throw new Error(
      `${file} is missing: run \`npm run build\` before these tests (npm test does).`,
    );
  }
  if (newestChangeUnder(join(ROOT, "app")) > statSync(path).mtimeMs) {
    throw new Error(`${file} predates a change in app/: run \`npm run build\` before these tests.`);
  }
  checked.add(file);
}
