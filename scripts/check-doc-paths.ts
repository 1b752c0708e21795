/**
 * Dead references: every repository path that the README, docs/ or a code comment names
 * (`app/…`, `test/…`, `docs/…`, …) must exist, a section named after its page
 * (`docs/database.md, "Memory"`) must be a heading of it, and every Markdown link must reach its
 * file and, with a `#section`, a heading of that file.
 *
 *   npx tsx scripts/check-doc-paths.ts          # prints each dead reference; exit 1 if any
 *
 * `{a,b}` in a path is expanded; a path with `*` or `<…>` is checked up to its first such part.
 * test/scripts/check-doc-paths.test.ts runs it, so `npm test` fails on a dead reference.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";

const ROOT = join(import.meta.dirname, "..");

/** Top-level folders whose paths are checked (others, such as build/, are made by tools). */
const ROOTS = [
  "app",
  "bench",
  "dev",
  "docs",
  "extensions",
  "prisma",
  "scripts",
  "security",
  "test",
  "testkit",
  "widget",
];

/**
 * Files that are gone, named as they were in the records of the past (docs/decisions/ only):
 * a decision record keeps the words it was written in.
 */
const GONE_IN_RECORDS = new Set(["app/catalog", "bench/html-to-text.bench.ts"]);

/** Not paths: Shopify's webhook topics (`app/uninstalled`). */
const NOT_PATHS = [/^app\/(uninstalled|scopes_update)$/];

export interface DeadReference {
  file: string;
  line: number;
  reference: string;
}

const PATH = new RegExp(
  String.raw`(?<![\w./@:-])((?:${ROOTS.join("|")})/[\w.\-/{},*$<>\[\]]*[\w*}>\]/])`,
  "g",
);
const LINK = /\]\(([^)\s]+)\)/g;
/** A section named after its page: `docs/database.md, "Memory"`, `docs/database.md ("Memory")`. */
const SECTION = /\b((?:docs\/[\w./-]+|README)\.md),? \(?"([^"]+)"/g;

/** `a/{b,c}.ts` → `a/b.ts`, `a/c.ts`. */
function expand(path: string): string[] {
  const match = /\{([^{}]*)\}/.exec(path);
  if (!match) return [path];
  return match[1]!
    .split(",")
    .flatMap((part) =>
      expand(path.slice(0, match.index) + part + path.slice(match.index + match[0].length)),
    );
}

function pathExists(path: string): boolean {
  // Checked up to the first part that is a pattern (`*`, `<shop>`, `$id`, `[…]`).
  const parts = path.split("/");
  const fixed: string[] = [];
  for (const part of parts) {
    if (/[*<>[\]]/.test(part) || (part.startsWith("$") && fixed.length > 0)) break;
    fixed.push(part);
  }
  const candidate = join(ROOT, ...fixed);
  if (existsSync(candidate)) return true;
  if (fixed.length < parts.length) return false;
  // A module named without its extension (`app/models/inbox.server`, `app/models/inbox`).
  if ([".ts", ".tsx", ".js", ".mjs", ".server.ts"].some((ext) => existsSync(candidate + ext))) {
    return true;
  }
  // A decision record by its number (`docs/decisions/0001`).
  const folder = dirname(candidate);
  const name = candidate.slice(folder.length + 1);
  return (
    /^\d{4}$/.test(name) &&
    existsSync(folder) &&
    readdirSync(folder).some((entry) => entry.startsWith(`${name}-`))
  );
}

/** The headings of a Markdown file, as written (without `#`s and backticks). */
function headings(file: string): string[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .flatMap((line) => /^#{1,6}\s+(.*)$/.exec(line)?.[1]?.replaceAll("`", "").trim() ?? []);
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  for (const line of markdown.split("\n")) {
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    found.add(slug);
  }
  return found;
}

function linkDead(fromFile: string, target: string): boolean {
  if (/^[a-z]+:/i.test(target)) return false; // https:, mailto:
  const [pathPart, anchor] = target.split("#", 2);
  const file = pathPart ? join(dirname(fromFile), pathPart) : fromFile;
  if (!existsSync(file)) return true;
  if (!anchor || statSync(file).isDirectory() || !file.endsWith(".md")) return false;
  return !anchors(readFileSync(file, "utf8")).has(anchor);
}

function checkText(file: string, lines: string[], deadOut: DeadReference[], links: boolean) {
  lines.forEach((text, index) => {
    // A section name may run on to the next line.
    const joined = `${text} ${(lines[index + 1] ?? "").trim()}`;
    for (const match of joined.matchAll(SECTION)) {
      if (match.index >= text.length) continue;
      const page = join(ROOT, match[1]!);
      const name = match[2]!.replace(/\s+/g, " ");
      if (!existsSync(page) || !headings(page).includes(name)) {
        deadOut.push({
          file: relative(ROOT, file),
          line: index + 1,
          reference: `${match[1]}, "${name}"`,
        });
      }
    }
    for (const match of text.matchAll(PATH)) {
      if (/^#\d/.test(text.slice(match.index + match[0].length))) continue; // prisma/orm#29774
      const mention = match[1]!.replace(/[.,;:]+$/, "");
      for (const path of expand(mention).map((p) => p.replace(/\/$/, ""))) {
        if (NOT_PATHS.some((pattern) => pattern.test(path))) continue;
        if (GONE_IN_RECORDS.has(path) && relative(ROOT, file).startsWith("docs/decisions/"))
          continue;
        if (!pathExists(path)) {
          deadOut.push({ file: relative(ROOT, file), line: index + 1, reference: path });
        }
      }
    }
    if (!links) return;
    for (const match of text.matchAll(LINK)) {
      if (linkDead(file, match[1]!)) {
        deadOut.push({ file: relative(ROOT, file), line: index + 1, reference: match[1]! });
      }
    }
  });
}

function filesUnder(directory: string, extensions: string[]): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules" && entry.name !== "fixtures") {
        out.push(...filesUnder(path, extensions));
      }
    } else if (extensions.some((ext) => entry.name.endsWith(ext))) out.push(path);
  }
  return out;
}

/** Dead references in the README and docs/. */
export function deadReferencesInDocs(): DeadReference[] {
  const dead: DeadReference[] = [];
  for (const file of [join(ROOT, "README.md"), ...filesUnder(join(ROOT, "docs"), [".md"])]) {
    checkText(file, readFileSync(file, "utf8").split("\n"), dead, true);
  }
  return dead;
}

/** Dead paths in code comments (lines that are, or end in, a comment). */
export function deadReferencesInComments(): DeadReference[] {
  const dead: DeadReference[] = [];
  const folders = ["app", "bench", "dev", "scripts", "test", "testkit", "widget"];
  for (const folder of folders) {
    for (const file of filesUnder(join(ROOT, folder), [".ts", ".tsx", ".mjs"])) {
      const comments = readFileSync(file, "utf8")
        .split("\n")
        .map((line) => {
          const comment = /^\s*(?:\*|\/\*\*?|\/\/)(.*)$/.exec(line) ?? /\s\/\/\s(.*)$/.exec(line);
          return comment ? comment[1]! : "";
        });
      checkText(file, comments, dead, false);
    }
  }
  return dead;
}

if (import.meta.filename === process.argv[1]) {
  const dead = [...deadReferencesInDocs(), ...deadReferencesInComments()];
  for (const d of dead) console.log(`${d.file}:${d.line}: ${d.reference}`);
  console.log(dead.length === 0 ? "No dead references." : `${dead.length} dead references.`);
  process.exitCode = dead.length === 0 ? 0 : 1;
}
