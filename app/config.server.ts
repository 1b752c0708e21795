import { databaseUrlFrom, isPostgresUrl } from "./database-url";
import { loggingProblems } from "./server/log";

/**
 * Every environment variable the app reads, validated in one place. A bad configuration stops
 * start-up with one message listing every problem and how to fix it.
 */
export interface AppEnvironment {
  nodeEnv: "development" | "production" | "test";
  shopifyApiKey: string;
  shopifyApiSecret: string;
  /**
   * Secrets a Shopify webhook may be signed with: SHOPIFY_API_SECRET first, then
   * SHOPIFY_API_SECRET_PREVIOUS (during a client secret rotation, see docs/key-rotation.md).
   */
  webhookSecrets: string[];
  appUrl: string;
  scopes: string[];
  databaseUrl: string;
  /** 32-byte key for encrypting the service's secret keys at rest. */
  encryptionKey: Buffer;
  /**
   * Keys a stored secret may be sealed with: ENCRYPTION_KEY first, then ENCRYPTION_KEY_PREVIOUS
   * (during a rotation, see docs/key-rotation.md).
   */
  decryptionKeys: Buffer[];
  /** Base URL of the hosted search and chat service. */
  indexApiUrl: string;
  shopCustomDomain: string | undefined;
  /**
   * The offline demo (npm run demo): one demo shop whose Admin API is the local fake. Never in
   * production.
   */
  demo: DemoShop | undefined;
  /** What the app server runs besides answering requests (see app/background.server.ts). */
  background: BackgroundSettings;
  /** How the live worker sends product changes (in the app server or `npm run worker`). */
  live: LiveSettings;
  /** The service's events (Inbox, Insights): how long they are kept. */
  serviceEvents: ServiceEventSettings;
  /** Full syncs' history: how much of it is kept. */
  syncHistory: SyncHistorySettings;
  /** Outgoing mail for Inbox notifications; undefined sends none. */
  mail: MailSettings | undefined;
  /**
   * WORKER_PORT: `npm run worker` answers /healthz and /readyz on this port (every interface);
   * unset, it listens on none (docs/operations.md).
   */
  workerPort: number | undefined;
  /**
   * METRICS_TOKEN: the bearer token `GET /metrics` asks for (app server and WORKER_PORT); unset,
   * /metrics answers 404 (docs/operations.md, Metrics).
   */
  metricsToken: string | undefined;
  /**
   * METRICS_SHOP_LABELS: the few shops (myshopify domains, at most METRICS_SHOP_LABELS_MAX) whose
   * figures /metrics also shows by shop, in the `_by_shop` series; empty: none (docs/operations.md,
   * Metrics by shop).
   */
  metricsShopLabels: readonly string[];
}

export interface ServiceEventSettings {
  /** SERVICE_EVENTS_RETENTION_DAYS: events and Inbox entries older than this are deleted. */
  retentionDays: number;
}

export interface SyncHistorySettings {
  /**
   * SYNC_RUNS_KEPT: a shop's finished full syncs kept (the newest), with their counts; older ones
   * and their exports' records are deleted when a run finishes (docs/sync.md, Retention).
   */
  runsKept: number;
}

export interface MailSettings {
  /** SMTP_URL: smtp(s)://user:password@host:port; never logged, never shown. */
  smtpUrl: string;
  /** MAIL_FROM: the sender of notifications. */
  from: string;
  /** NOTIFY_EMAIL: where notifications go instead of the shop's own address. */
  notifyTo: string | undefined;
  /**
   * HANDOFF_MAIL_WAIT_SECONDS: how long a request to talk to a person waits for the shopper's
   * contact form before its email goes alone (the form's email says everything, once).
   */
  handoffMailWaitMs: number;
  /**
   * MAIL_RETRY_SECONDS: the wait after a failed send; it doubles with each failure of the same
   * email, up to an hour.
   */
  retryBaseMs: number;
  /**
   * MAIL_LEASE_SECONDS: how long a sender's claim on an email holds; a sender killed mid-send
   * keeps its email from the others this long (the SMTP timeouts are kept within it).
   */
  leaseMs: number;
  /**
   * MAIL_POLL_SECONDS: how often a sender looks at the outbox when nothing nudged it (an email
   * that came due after a wait or a backoff, one owed by another process).
   */
  pollMs: number;
}

export interface BackgroundSettings {
  /** BACKGROUND_WORK=off: no worker, no resumed runs, no reconciliation (tests). */
  enabled: boolean;
  /** LIVE_WORKER=separate: live changes are sent by `npm run worker`, not the app server. */
  liveWorkerInApp: boolean;
  /** RECONCILE_EVERY_HOURS: a full re-export per shop this often; 0 never. */
  reconcileEveryHours: number;
  /** RECONCILE_CHECK_EVERY_MINUTES: an export of the products changed since the last check; 0 never. */
  checkEveryMinutes: number;
}

export interface LiveSettings {
  /** LIVE_COALESCE_MS: changes wait this long for others (or a full batch). */
  coalesceMs: number;
  /** LIVE_POLL_MS: how often the outbox is looked at. */
  pollMs: number;
  /** LIVE_LEASE_MS: a dead worker's shops are free again after this. */
  leaseMs: number;
}

export interface DemoShop {
  shopDomain: string;
  adminGraphqlUrl: string;
  accessToken: string;
  /** The demo's storefront preview, where "Add the chat to your theme" leads (no theme editor). */
  storefrontUrl: string | null;
}

export class ConfigurationError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `The app cannot start: its configuration has ${problems.length} problem${problems.length === 1 ? "" : "s"}.\n` +
        problems.map((p) => `  - ${p}`).join("\n") +
        "\nSet these environment variables (see README.md, Configuration) and start again.",
    );
    this.name = "ConfigurationError";
  }
}

const NODE_ENVS = ["development", "production", "test"] as const;

/** The service's URL outside production: the local emulator (`npm run emulator`). */
export const DEFAULT_INDEX_API_URL = "http://127.0.0.1:4010";

/**
 * A URL as a configuration message may show it: any user and password, and every query value,
 * replaced by `***` (a URL that does not parse is masked the same way by pattern), so that a
 * message printed to a log never carries a credential.
 */
export function redactUrl(value: string): string {
  return value
    .replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^/?#]*@/i, "$1***@")
    .replace(/([?&;][^=&;#]*)=[^&;#]*/g, "$1=***")
    .replace(/#.*$/, (fragment) => (fragment.length > 1 ? "#***" : fragment));
}

export function readConfig(
  env: Readonly<Record<string, string | undefined>> = process.env,
): AppEnvironment {
  const problems: string[] = [];
  const text = (name: string, fix: string): string => {
    const value = env[name]?.trim();
    if (!value) {
      problems.push(`${name} is missing: ${fix}`);
      return "";
    }
    return value;
  };
  const url = (name: string, fix: string, fallback?: string): string => {
    const value = env[name]?.trim() || fallback;
    if (!value) {
      problems.push(`${name} is missing: ${fix}`);
      return "";
    }
    try {
      const parsed = new URL(value);
      if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw new Error();
      return value.replace(/\/+$/, "");
    } catch {
      problems.push(`${name} must be an http(s) URL, got "${redactUrl(value)}": ${fix}`);
      return "";
    }
  };

  const nodeEnvRaw = env.NODE_ENV?.trim() || "development";
  const nodeEnv = (NODE_ENVS as readonly string[]).includes(nodeEnvRaw)
    ? (nodeEnvRaw as AppEnvironment["nodeEnv"])
    : (problems.push(`NODE_ENV must be one of ${NODE_ENVS.join(", ")}, got "${nodeEnvRaw}"`),
      "development" as const);

  const shopifyApiKey = text(
    "SHOPIFY_API_KEY",
    "the app's client id from the Partner Dashboard (the Shopify CLI sets it during `shopify app dev`)",
  );
  const shopifyApiSecret = text(
    "SHOPIFY_API_SECRET",
    "the app's client secret from the Partner Dashboard",
  );
  const previousSecrets = (env.SHOPIFY_API_SECRET_PREVIOUS ?? "")
    .split(",")
    .map((secret) => secret.trim())
    .filter(Boolean);
  const appUrl = url(
    "SHOPIFY_APP_URL",
    "the public https URL the app is served from (the Shopify CLI sets it during `shopify app dev`)",
  );
  if (nodeEnv === "production" && appUrl.startsWith("http:")) {
    problems.push("SHOPIFY_APP_URL must use https in production");
  }

  const scopes = (env.SCOPES ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (env.SCOPES !== undefined && scopes.length === 0) {
    problems.push("SCOPES is set but empty: leave it unset or give a comma-separated list");
  }

  const databaseUrl = databaseUrlFrom(env);
  if (!/^file:/.test(databaseUrl) && !isPostgresUrl(databaseUrl)) {
    problems.push(
      `DATABASE_URL must be a SQLite file URL such as "file:./prisma/app.db" or a PostgreSQL URL such as "postgresql://user:password@host:5432/db", got "${redactUrl(databaseUrl)}"`,
    );
  }

  const encryptionKey = readEncryptionKey(env.ENCRYPTION_KEY, nodeEnv, problems);
  const previousKeys = (env.ENCRYPTION_KEY_PREVIOUS ?? "")
    .split(",")
    .map((k) => k.trim())
    .filter(Boolean)
    .map((k) => parseKey(k, "ENCRYPTION_KEY_PREVIOUS", problems));

  const indexApiUrl = url(
    "INDEX_API_URL",
    "the base URL of the search and chat service (for local work, the emulator: http://127.0.0.1:4010)",
    nodeEnv === "production" ? undefined : DEFAULT_INDEX_API_URL,
  );
  if (nodeEnv === "production" && indexApiUrl.startsWith("http:") && !isLoopback(indexApiUrl)) {
    problems.push(
      `INDEX_API_URL must use https in production (the shops' secret keys travel with every request), got "${redactUrl(indexApiUrl)}"; plain http is allowed to loopback only`,
    );
  }

  const demo = readDemoShop(env, nodeEnv, problems);
  const { background, live } = readBackgroundSettings(env, problems);
  const serviceEvents = readServiceEventSettings(env, problems);
  const syncHistory = readSyncHistorySettings(env, problems);
  const mail = readMailSettings(env, problems);
  const workerPort = readWorkerPort(env, problems);
  const metricsToken = readMetricsToken(env, problems);
  const metricsShopLabels = readMetricsShopLabels(env, problems);
  problems.push(...loggingProblems(env));

  if (problems.length > 0) throw new ConfigurationError(problems);
  return {
    nodeEnv,
    shopifyApiKey,
    shopifyApiSecret,
    webhookSecrets: [shopifyApiSecret, ...previousSecrets],
    appUrl,
    scopes,
    databaseUrl,
    encryptionKey,
    decryptionKeys: [encryptionKey, ...previousKeys],
    indexApiUrl,
    shopCustomDomain: env.SHOP_CUSTOM_DOMAIN?.trim() || undefined,
    demo,
    background,
    live,
    serviceEvents,
    syncHistory,
    mail,
    workerPort,
    metricsToken,
    metricsShopLabels,
  };
}

/**
 * The most shops METRICS_SHOP_LABELS may name: each adds ~20 series to every process's /metrics,
 * and the label is for watching a few shops closely, not for every install.
 */
export const METRICS_SHOP_LABELS_MAX = 20;

function readMetricsShopLabels(
  env: Readonly<Record<string, string | undefined>>,
  problems: string[],
): readonly string[] {
  const raw = env.METRICS_SHOP_LABELS?.trim();
  if (!raw) return [];
  const shops = [
    ...new Set(
      raw
        .split(",")
        .map((shop) => shop.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
  const malformed = shops.filter((shop) => !/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/.test(shop));
  if (malformed.length > 0) {
    problems.push(
      `METRICS_SHOP_LABELS must list shops' myshopify domains separated by commas (a-shop.myshopify.com,b-shop.myshopify.com), got ${malformed.map((shop) => `"${shop}"`).join(", ")}`,
    );
    return [];
  }
  if (shops.length > METRICS_SHOP_LABELS_MAX) {
    problems.push(
      `METRICS_SHOP_LABELS names ${shops.length} shops, at most ${METRICS_SHOP_LABELS_MAX} are taken: a series per shop is for watching a few shops, their dashboards show the others`,
    );
    return [];
  }
  return shops;
}

/** The shortest METRICS_TOKEN taken: a guessable token would open the metrics to anyone. */
const METRICS_TOKEN_MIN_LENGTH = 16;

function readMetricsToken(
  env: Readonly<Record<string, string | undefined>>,
  problems: string[],
): string | undefined {
  const raw = env.METRICS_TOKEN?.trim();
  if (!raw) return undefined;
  // What an Authorization header carries as is: visible ASCII, no spaces.
  if (!/^[\x21-\x7e]+$/.test(raw) || raw.length < METRICS_TOKEN_MIN_LENGTH) {
    problems.push(
      `METRICS_TOKEN must be at least ${METRICS_TOKEN_MIN_LENGTH} visible ASCII characters without spaces (\`openssl rand -hex 32\`), or unset to turn /metrics off`,
    );
    return undefined;
  }
  return raw;
}

function readWorkerPort(
  env: Readonly<Record<string, string | undefined>>,
  problems: string[],
): number | undefined {
  const raw = env.WORKER_PORT?.trim();
  if (!raw) return undefined;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    problems.push(`WORKER_PORT must be a port number from 1 to 65535, got "${raw}"`);
    return undefined;
  }
  return port;
}

function readServiceEventSettings(
  env: Readonly<Record<string, string | undefined>>,
  problems: string[],
): ServiceEventSettings {
  const raw = env.SERVICE_EVENTS_RETENTION_DAYS?.trim();
  if (!raw) return { retentionDays: 90 };
  const days = Number(raw);
  if (!Number.isInteger(days) || days < 1 || days > 3650) {
    problems.push(
      `SERVICE_EVENTS_RETENTION_DAYS must be a whole number of days from 1 to 3650, got "${raw}"`,
    );
    return { retentionDays: 90 };
  }
  return { retentionDays: days };
}

/**
 * SYNC_RUNS_KEPT alone, for code that also runs without the app's configuration (`npm run sync`
 * finishes runs too); readConfig checks it with everything else.
 */
export function syncHistorySettings(
  env: Readonly<Record<string, string | undefined>> = process.env,
): SyncHistorySettings {
  const problems: string[] = [];
  const settings = readSyncHistorySettings(env, problems);
  if (problems.length > 0) throw new ConfigurationError(problems);
  return settings;
}

function readSyncHistorySettings(
  env: Readonly<Record<string, string | undefined>>,
  problems: string[],
): SyncHistorySettings {
  const raw = env.SYNC_RUNS_KEPT?.trim();
  if (!raw) return { runsKept: 20 };
  const runs = Number(raw);
  if (!Number.isInteger(runs) || runs < 1 || runs > 1000) {
    problems.push(`SYNC_RUNS_KEPT must be a whole number of runs from 1 to 1000, got "${raw}"`);
    return { runsKept: 20 };
  }
  return { runsKept: runs };
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

function readMailSettings(
  env: Readonly<Record<string, string | undefined>>,
  problems: string[],
): MailSettings | undefined {
  const smtpUrl = env.SMTP_URL?.trim();
  if (!smtpUrl) return undefined;
  let parsed: URL | undefined;
  try {
    parsed = new URL(smtpUrl);
  } catch {
    parsed = undefined;
  }
  if (
    !parsed ||
    (parsed.protocol !== "smtp:" && parsed.protocol !== "smtps:") ||
    !parsed.hostname
  ) {
    // The value may hold a password: never echo it.
    problems.push("SMTP_URL must look like smtp(s)://user:password@host:port");
  }
  const from = env.MAIL_FROM?.trim() ?? "";
  if (!EMAIL.test(from.replace(/^.*<(.+)>$/, "$1"))) {
    problems.push(
      'MAIL_FROM is needed with SMTP_URL: the sender address, e.g. "Catalog Chat <inbox@example.com>"',
    );
  }
  const notifyTo = env.NOTIFY_EMAIL?.trim() || undefined;
  if (notifyTo !== undefined && !EMAIL.test(notifyTo)) {
    problems.push(`NOTIFY_EMAIL must be an email address, got "${notifyTo}"`);
  }
  const waitRaw = env.HANDOFF_MAIL_WAIT_SECONDS?.trim() || "20";
  const wait = Number(waitRaw);
  if (!Number.isFinite(wait) || wait < 0 || wait > 3600) {
    problems.push(
      `HANDOFF_MAIL_WAIT_SECONDS must be a number of seconds from 0 to 3600, got "${waitRaw}"`,
    );
  }
  const retryRaw = env.MAIL_RETRY_SECONDS?.trim() || "30";
  const retry = Number(retryRaw);
  if (!Number.isFinite(retry) || retry < 0.1 || retry > 3600) {
    problems.push(
      `MAIL_RETRY_SECONDS must be a number of seconds from 0.1 to 3600, got "${retryRaw}"`,
    );
  }
  const leaseRaw = env.MAIL_LEASE_SECONDS?.trim() || "120";
  const lease = Number(leaseRaw);
  if (!Number.isFinite(lease) || lease < 4 || lease > 3600) {
    problems.push(
      `MAIL_LEASE_SECONDS must be a number of seconds from 4 to 3600, got "${leaseRaw}"`,
    );
  }
  const pollRaw = env.MAIL_POLL_SECONDS?.trim() || "2";
  const poll = Number(pollRaw);
  if (!Number.isFinite(poll) || poll < 0.1 || poll > 60) {
    problems.push(`MAIL_POLL_SECONDS must be a number of seconds from 0.1 to 60, got "${pollRaw}"`);
  }
  return {
    smtpUrl,
    from,
    notifyTo,
    handoffMailWaitMs: Math.round(wait * 1000),
    retryBaseMs: Math.round(retry * 1000),
    leaseMs: Math.round(lease * 1000),
    pollMs: Math.round(poll * 1000),
  };
}

function readBackgroundSettings(
  env: Readonly<Record<string, string | undefined>>,
  problems: string[],
): { background: BackgroundSettings; live: LiveSettings } {
  const choice = (name: string, values: readonly string[], fallback: string): string => {
    const value = env[name]?.trim().toLowerCase() || fallback;
    if (values.includes(value)) return value;
    problems.push(`${name} must be one of ${values.join(", ")}, got "${env[name]}"`);
    return fallback;
  };
  const number = (name: string, fallback: number, min: number, what: string): number => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < min) {
      problems.push(`${name} must be ${what} (a number >= ${min}), got "${raw}"`);
      return fallback;
    }
    return value;
  };
  return {
    background: {
      enabled: choice("BACKGROUND_WORK", ["on", "off"], "on") === "on",
      liveWorkerInApp: choice("LIVE_WORKER", ["in-app", "separate"], "in-app") === "in-app",
      reconcileEveryHours: number(
        "RECONCILE_EVERY_HOURS",
        24,
        0,
        "hours between reconciliations, 0 for never",
      ),
      checkEveryMinutes: number(
        "RECONCILE_CHECK_EVERY_MINUTES",
        60,
        0,
        "minutes between checks of changed products, 0 for never",
      ),
    },
    live: {
      coalesceMs: number("LIVE_COALESCE_MS", 3_000, 0, "milliseconds"),
      pollMs: number("LIVE_POLL_MS", 1_000, 10, "milliseconds"),
      leaseMs: number("LIVE_LEASE_MS", 60_000, 1_000, "milliseconds"),
    },
  };
}

function readDemoShop(
  env: Readonly<Record<string, string | undefined>>,
  nodeEnv: AppEnvironment["nodeEnv"],
  problems: string[],
): DemoShop | undefined {
  const shopDomain = env.DEMO_SHOP?.trim();
  if (!shopDomain) return undefined;
  if (nodeEnv === "production") {
    problems.push("DEMO_SHOP is set: the offline demo can never run with NODE_ENV=production");
    return undefined;
  }
  const adminGraphqlUrl = env.DEMO_ADMIN_GRAPHQL_URL?.trim() ?? "";
  if (!/^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\//.test(adminGraphqlUrl)) {
    problems.push(
      "DEMO_ADMIN_GRAPHQL_URL must be the local fake Admin API on loopback (http://127.0.0.1:<port>/admin/api/…)",
    );
  }
  return {
    shopDomain,
    adminGraphqlUrl,
    accessToken: env.DEMO_ADMIN_TOKEN?.trim() || "shpat_fake_token",
    storefrontUrl: /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\//.test(
      env.DEMO_STOREFRONT_URL?.trim() ?? "",
    )
      ? env.DEMO_STOREFRONT_URL!.trim()
      : null,
  };
}

// Outside production a fixed development key keeps local databases readable across restarts;
// production must bring its own.
const DEVELOPMENT_ENCRYPTION_KEY = Buffer.alloc(32, "catalog-chat-development-key");

function isLoopback(value: string): boolean {
  const host = new URL(value).hostname;
  return host === "localhost" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * Why a 32-byte key cannot be a production secret, or null. Random bytes have ~30 distinct values
 * and are rarely all printable: fewer than 16 distinct bytes (all zeros, a repeated pattern) or
 * nothing but printable ASCII (a passphrase or placeholder typed in) has odds below 1e-13 for
 * `openssl rand`, so refusing them refuses no real key.
 */
export function weakKeyReason(key: Buffer): string | null {
  if (key.equals(DEVELOPMENT_ENCRYPTION_KEY)) return "it is the public development key";
  if (new Set(key).size < 16) return "it repeats a few byte values (not random)";
  if (key.every((byte) => byte >= 0x20 && byte < 0x7f)) {
    return "it is printable text (a placeholder or passphrase), not random bytes";
  }
  return null;
}

/** A 32-byte key written as hex (64 characters) or base64 (44). */
function parseKey(value: string, name: string, problems: string[]): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(value)
    ? Buffer.from(value, "hex")
    : Buffer.from(value, "base64");
  if (key.length !== 32) {
    problems.push(
      `${name} must be 32 bytes as base64 (44 characters) or hex (64 characters): \`openssl rand -base64 32\``,
    );
  }
  return key;
}

function readEncryptionKey(
  raw: string | undefined,
  nodeEnv: AppEnvironment["nodeEnv"],
  problems: string[],
): Buffer {
  const value = raw?.trim();
  if (!value) {
    if (nodeEnv === "production") {
      problems.push(
        "ENCRYPTION_KEY is missing: 32 random bytes as base64, e.g. from `openssl rand -base64 32`",
      );
    }
    return DEVELOPMENT_ENCRYPTION_KEY;
  }
  const key = parseKey(value, "ENCRYPTION_KEY", problems);
  if (key.length === 32 && nodeEnv === "production") {
    const weak = weakKeyReason(key);
    if (weak) {
      problems.push(
        `ENCRYPTION_KEY is not a usable secret: ${weak}; use \`openssl rand -base64 32\``,
      );
    }
  }
  return key;
}

let cached: AppEnvironment | undefined;

/** The validated configuration of this process, read once. */
export function config(): AppEnvironment {
  cached ??= readConfig();
  return cached;
}

/**
 * For entry points (the app server's build, `npm run worker`): a bad configuration prints its one
 * message, without a stack trace, and ends the process with exit code 2.
 */
export function configOrExit(): AppEnvironment {
  try {
    return config();
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    // Not a log record: the message for whoever starts the process, as it is (docs/operations.md).
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
}
