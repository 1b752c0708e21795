/**
 * What stops a README command before it starts, as an operator meets it: a database that does not
 * answer (DATABASE_URL on a closed PostgreSQL port), one that cannot be migrated or is not
 * migrated. Each says so in one line with how to fix it, exit code 2, no stack trace; `npm start`
 * prints a few lines of its own, not Prisma's, and what it writes is ignored by git.
 */
import { execFileSync, spawn } from "node:child_process";
import { cpSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../testkit/free-port";
import { requireCurrentBuild } from "../../testkit/live-stack";
import { commandEnvironment, runCommand } from "../../testkit/run-command";
import { npmCommand } from "../../testkit/npm-command";

const ROOT = join(import.meta.dirname, "..", "..");
let base: Record<string, string>;
let closedPostgres: string;
const folder = mkdtempSync(join(tmpdir(), "start-up-failures-"));

beforeAll(async () => {
  requireCurrentBuild();
  base = commandEnvironment({
    NODE_ENV: "test",
    BACKGROUND_WORK: "off",
    PORT: "0",
    INDEX_SECRET_KEY: "svc_sk_test_enterprise",
  });
  // A port nothing listens on, with a password that must not be printed.
  closedPostgres = `postgresql://operator:s3cret@127.0.0.1:${await freePort()}/catalog`;
});

const COMMANDS = {
  "npm start": npmCommand("start"),
  "npm run worker": npmCommand("worker"),
  "npm run sync": [...npmCommand("sync"), "--input", "README.md", "--domain", "a.example"],
  "npm run secrets:reencrypt": npmCommand("secrets:reencrypt"),
  "npm run demo": ["--import", "tsx", "dev/demo/main.ts"],
} as const;

function expectOneLine(result: { code: number | null; stderr: string }, pattern: RegExp) {
  expect(result.stderr.trim().split("\n"), result.stderr).toHaveLength(1);
  expect(result.stderr.trim()).toMatch(pattern);
  expect(result.stderr).not.toContain("s3cret");
  expect(result.code).toBe(2);
}

describe("a database that does not answer", () => {
  for (const [name, command] of Object.entries(COMMANDS)) {
    it(`${name}: one line naming DATABASE_URL, exit code 2`, async () => {
      const env: Record<string, string> = { ...base, DATABASE_URL: closedPostgres };
      if (name === "npm run demo") {
        // The demo runs on its own ports and never in production or test mode.
        for (const port of [
          "EMULATOR_PORT",
          "FAKE_SHOPIFY_PORT",
          "SMTP_PORT",
          "STOREFRONT_PORT",
          "MAIL_PORT",
        ])
          env[port] = "0";
        env.NODE_ENV = "development";
      }
      const result = await runCommand([...command], env);
      expectOneLine(
        result,
        name === "npm run demo"
          ? /^The PostgreSQL server at postgresql:\/\/\*\*\*@127\.0\.0\.1:\d+\/catalog does not answer .*unset DATABASE_URL/
          : /^The database at postgresql:\/\/\*\*\*@127\.0\.0\.1:\d+\/catalog does not answer: start it, or set DATABASE_URL/,
      );
    }, 60_000);
  }
});

describe("a database that cannot be migrated, or is not", () => {
  const notADatabase = () => {
    const path = join(mkdtempSync(join(folder, "bad-")), "app.db");
    writeFileSync(path, "this is not a SQLite database, it is a text file".repeat(100));
    return `file:${path}`;
  };

  it("npm start: one line saying it could not be migrated and why, exit code 2", async () => {
    const result = await runCommand([...COMMANDS["npm start"]], {
      ...base,
      DATABASE_URL: notADatabase(),
    });
    expectOneLine(
      result,
      /^The database at file:\S+ could not be migrated \(.*not a database.*\): fix it/,
    );
  }, 60_000);

  it("npm run sync: the same line, exit code 2", async () => {
    const result = await runCommand([...COMMANDS["npm run sync"]], {
      ...base,
      DATABASE_URL: notADatabase(),
    });
    expectOneLine(result, /^The database at file:\S+ could not be migrated/);
  }, 60_000);

  for (const name of ["npm run worker", "npm run secrets:reencrypt"] as const) {
    it(`${name} (which never migrates): one line saying to run npm run setup, exit code 2`, async () => {
      const empty = `file:${join(mkdtempSync(join(folder, "empty-")), "app.db")}`;
      const result = await runCommand([...COMMANDS[name]], {
        ...base,
        DATABASE_URL: empty,
      });
      expectOneLine(
        result,
        /^The database at file:\S+ is not migrated \(.*run `npm run setup`\)\.$/,
      );
    }, 60_000);
  }

  it("npm run secrets:reencrypt with an argument: its usage, and nothing read or written", async () => {
    const help = await runCommand([...COMMANDS["npm run secrets:reencrypt"], "--help"], {
      ...base,
      DATABASE_URL: closedPostgres,
    });
    expect(help.code).toBe(0);
    const other = await runCommand([...COMMANDS["npm run secrets:reencrypt"], "--dry-run"], {
      ...base,
      DATABASE_URL: closedPostgres,
    });
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/^Usage: npm run secrets:reencrypt/);
    expect(other.stderr).not.toMatch(/The database at/);
  }, 60_000);
});

describe("npm start's own output", () => {
  it("a bad configuration: a few lines, none of them Prisma's, exit code 2", async () => {
    const output = await new Promise<{ code: number | null; text: string }>((resolve) => {
      const child = spawn("npm", ["start"], {
        cwd: ROOT,
        env: {
          ...base,
          SHOPIFY_API_KEY: "",
          DATABASE_URL: `file:${join(folder, "start.db")}`,
        } as unknown as NodeJS.ProcessEnv,
      });
      let text = "";
      child.stdout.on("data", (chunk: Buffer) => (text += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (text += chunk.toString()));
      child.on("close", (code) => resolve({ code, text }));
    });
    expect(output.code).toBe(2);
    expect(output.text).toMatch(/SHOPIFY_API_KEY/);
    expect(output.text).not.toMatch(/Prisma|prisma|migrations? found|Datasource/);
    expect(output.text.trim().split("\n").length, output.text).toBeLessThanOrEqual(8);
  }, 60_000);

  it("npm start, npm run worker and npm run sync without a build: one line saying to run npm run build, exit code 2", async () => {
    // A copy of the app's sources with no build/ beside them (the repository's own build stays
    // for the other tests running now).
    const copy = mkdtempSync(join(tmpdir(), "no-build-"));
    for (const entry of ["app", "scripts", "package.json", "tsconfig.json", "shopify.app.toml"]) {
      cpSync(join(ROOT, entry), join(copy, entry), { recursive: true });
    }
    symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"));
    for (const name of ["npm start", "npm run worker", "npm run sync"] as const) {
      const result = await runCommand([...COMMANDS[name]], base, copy);
      expectOneLine(result, /^The app is not built: run `npm run build` first/);
    }
  }, 60_000);

  it("started from another folder, a command runs from the project's, as npm runs it", async () => {
    // README.md is the project's: found from any folder, the command goes on to the database.
    const elsewhere = mkdtempSync(join(tmpdir(), "elsewhere-"));
    const [launcher, name] = npmCommand("sync");
    const result = await runCommand(
      [join(ROOT, launcher!), name!, "--input", "README.md", "--domain", "a.example"],
      { ...base, DATABASE_URL: closedPostgres },
      elsewhere,
    );
    expectOneLine(
      result,
      /^The database at postgresql:\/\/\*\*\*@127\.0\.0\.1:\d+\/catalog does not answer/,
    );
  }, 60_000);

  it("a command that does not exist: one line naming it, exit code 2", async () => {
    const [launcher] = npmCommand("sync");
    for (const name of ["../cli/serve", "serve.js", ""]) {
      const result = await runCommand([launcher!, name], base);
      expectOneLine(result, /^There is no command ".*" in app\/cli\/\.$/);
    }
  });

  it("the default SQLite database and its -shm and -wal files are ignored by git", () => {
    const paths = ["prisma/app.db", "prisma/app.db-shm", "prisma/app.db-wal"];
    const ignored = execFileSync("git", ["check-ignore", ...paths], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(ignored.trim().split("\n")).toEqual(paths);
  });
});
