import { access, constants } from "node:fs/promises";
import { parseArgs } from "node:util";
import { BulkJsonlSyntaxError } from "../catalogue";
import { fileSource } from "../shopify/bulk-source";
import { IndexServiceClient } from "../index-service/client";
import { NetworkError, UnauthorizedError } from "../index-service/errors";
import { DEFAULT_INDEX_API_URL } from "../config.server";
import { isTier, TIERS, type Tier } from "../index-service/tiers";
import { workspaceIdFromDomain } from "../index-service/workspace-id";
import { databaseUrlFrom } from "../database-url";
import type { KindCounts } from "../models/sync-runs.server";
import { migrateOrExplain } from "./start-up-checks";
import { ProgressLine } from "./progress-line";
import { runFullSync, SyncStoppedError } from "../sync/engine/sync-export.server";
import { rateKeyId } from "../index-service/key-request-counts";
import { loggingProblems } from "../server/log";

export const USAGE = `Usage: npm run sync -- --input <file.jsonl> [--input <more.jsonl>] --domain <storefront domain>
                     [--tier ${TIERS.join("|")}] [--json]

Sends a Shopify bulk-operation export (products, pages, articles) to the search service.
Environment: INDEX_API_URL (the service; default ${DEFAULT_INDEX_API_URL}, the emulator, unless
             NODE_ENV=production), INDEX_SECRET_KEY (a secret key, svc_sk_…),
             DATABASE_URL (default: the embedded SQLite file, created when missing).
Exit status: 0 synced, 1 the run failed or items were refused, 2 bad arguments or input, or a
             database that does not answer or cannot be migrated.`;

export interface CommandIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown; isTTY?: boolean };
}

class UsageError extends Error {}
/** --help: the usage goes to stdout and the command succeeds. */
class HelpRequested extends Error {}

interface Arguments {
  inputs: string[];
  domain: string;
  tier: Tier | undefined;
  json: boolean;
  apiUrl: string;
  secretKey: string;
}

function parse(argv: string[], env: Readonly<Record<string, string | undefined>>): Arguments {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        input: { type: "string", multiple: true },
        domain: { type: "string" },
        tier: { type: "string" },
        json: { type: "boolean", default: false },
        help: { type: "boolean", default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) throw new HelpRequested();
  const problems: string[] = [];
  if (!values.input?.length) problems.push("--input <file.jsonl> is required");
  if (!values.domain) problems.push("--domain <storefront domain> is required");
  if (values.tier !== undefined && !isTier(values.tier)) {
    problems.push(`--tier must be one of ${TIERS.join(", ")}, not "${values.tier}"`);
  }
  // As the app reads it (app/config.server.ts): the local emulator unless in production.
  const apiUrl =
    env.INDEX_API_URL?.trim() || (env.NODE_ENV === "production" ? "" : DEFAULT_INDEX_API_URL);
  const secretKey = env.INDEX_SECRET_KEY?.trim() ?? "";
  if (!apiUrl)
    problems.push("INDEX_API_URL is not set (the service's base URL; required in production)");
  if (!secretKey) problems.push("INDEX_SECRET_KEY is not set (a secret key, svc_sk_…)");
  problems.push(...loggingProblems(env));
  let domain = "";
  if (values.domain) {
    try {
      domain = new URL(
        /^[a-z]+:\/\//i.test(values.domain) ? values.domain : `https://${values.domain}`,
      ).hostname;
      workspaceIdFromDomain(domain);
    } catch {
      problems.push(`--domain "${values.domain}" is not a domain name`);
    }
  }
  if (problems.length > 0) throw new UsageError(problems.join("\n"));
  return {
    inputs: values.input ?? [],
    domain,
    tier: values.tier as Tier | undefined,
    json: values.json ?? false,
    apiUrl,
    secretKey,
  };
}

/** The sync command: parses, syncs through the app's own engine, reports. Returns the exit status. */
export async function runSyncCommand(
  argv: string[],
  env: Readonly<Record<string, string | undefined>>,
  io: CommandIo,
): Promise<number> {
  let args: Arguments;
  try {
    args = parse(argv, env);
    for (const input of args.inputs) {
      await access(input, constants.R_OK).catch((error: NodeJS.ErrnoException) => {
        throw new UsageError(`cannot read --input ${input}: ${unreadableBecause(error)}`);
      });
    }
  } catch (error) {
    if (error instanceof HelpRequested) {
      io.stdout.write(`${USAGE}\n`);
      return 0;
    }
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`${error.message ? `${error.message}\n\n` : ""}${USAGE}\n`);
    return 2;
  }

  // The engine opens the database on its first query: it must exist, and be the one configured.
  process.env.DATABASE_URL = databaseUrlFrom(env);
  const problem = await migrateOrExplain(process.env.DATABASE_URL);
  if (problem) {
    io.stderr.write(`${problem}\n`);
    return 2;
  }
  const workspaceId = workspaceIdFromDomain(args.domain);
  const client = new IndexServiceClient({
    baseUrl: args.apiUrl,
    apiKey: args.secretKey,
    workspaceId,
  });
  const progress = !args.json && io.stderr.isTTY ? new ProgressLine(io.stderr) : undefined;

  try {
    const result = await runFullSync({
      shopDomain: args.domain,
      workspaceId,
      primaryDomain: args.domain,
      client,
      sources: args.inputs.map((input) => ({ label: input, open: fileSource(input) })),
      types: ["product", "page", "article"],
      trigger: "cli",
      tier: args.tier,
      // Counted with every app process that sends on this key (the same database).
      keyId: rateKeyId(args.secretKey),
      onProgress: progress ? (p) => progress.update(p) : undefined,
    });
    progress?.end();
    const { counts } = result;
    const summary = {
      workspaceId,
      tier: result.tier,
      products: counts.products,
      posts: counts.posts,
      requests: result.requests,
      rateLimited: result.rateLimited,
      durationMs: result.durationMs,
    };
    const failed = counts.products.failed + counts.posts.failed;
    if (args.json) io.stdout.write(`${JSON.stringify(summary)}\n`);
    else io.stdout.write(readableSummary(summary));
    if (failed > 0) {
      io.stderr.write(
        `${failed} item(s) were refused by the service; see the run's items for why.\n`,
      );
      return 1;
    }
    return 0;
  } catch (error) {
    progress?.end();
    if (error instanceof BulkJsonlSyntaxError) {
      io.stderr.write(`${error.message}\nNothing was sent.\n`);
      return 2;
    }
    if (error instanceof SyncStoppedError && error.reason instanceof NetworkError) {
      io.stderr.write(
        `The sync stopped: the search service at ${args.apiUrl} could not be reached (${error.message}).\n` +
          "Check INDEX_API_URL (scheme, host and port), that the service is running, and this machine's network. Nothing was lost: run the command again.\n",
      );
      return 1;
    }
    if (error instanceof SyncStoppedError && error.reason instanceof UnauthorizedError) {
      io.stderr.write(
        `The sync stopped: the search service at ${args.apiUrl} refused the secret key (invalid, expired or revoked).\n` +
          "Check INDEX_SECRET_KEY (a secret key, svc_sk_…, of the account that owns the workspace) and run the command again.\n",
      );
      return 1;
    }
    if (error instanceof SyncStoppedError) {
      io.stderr.write(`The sync stopped: ${error.message}\n`);
      return 1;
    }
    io.stderr.write(`The sync failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

interface Summary {
  workspaceId: string;
  tier: Tier;
  products: KindCounts;
  posts: KindCounts;
  requests: number;
  rateLimited: number;
  durationMs: number;
}

function readableSummary(s: Summary): string {
  const row = (label: string, c: KindCounts) =>
    `  ${label.padEnd(9)} ${String(c.sent).padStart(7)} ${String(c.unchanged).padStart(9)} ${String(c.deleted).padStart(7)} ${String(c.overQuota).padStart(10)} ${String(c.failed).padStart(6)}\n`;
  return (
    `Synced into workspace ${s.workspaceId} (${s.tier} tier) in ${(s.durationMs / 1000).toFixed(1)} s\n` +
    `            sent unchanged deleted over quota failed\n` +
    row("products", s.products) +
    row("posts", s.posts) +
    `  ${s.requests} requests to the service, ${s.rateLimited} answered "rate limited"\n`
  );
}

function unreadableBecause(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case "ENOENT":
      return "there is no such file (check the path; it is read from the current folder)";
    case "EACCES":
    case "EPERM":
      return "this user may not read it";
    case "EISDIR":
      return "it is a folder, not a file";
    default:
      return error.message;
  }
}
