/**
 * The app's one logger (pino): every process and module logs through it, one JSON object per line
 * (`level`, `time`, `msg`, then `component`, `shop`, `runId`, `requestId` where there is one), or
 * one readable line per record where a person reads it (docs/operations.md, "Logs";
 * docs/decisions/0026-structured-logs-with-pino.md).
 *
 * - LOG_LEVEL (default info) filters; an invalid value stops start-up (app/config.server.ts).
 * - LOG_FORMAT=json|pretty; by default pretty when the output is a terminal, else JSON. The demo
 *   and the CLI commands ask for pretty themselves (`configureLogging`).
 * - `withLogContext({ shop, runId, requestId }, work)`: every line logged inside `work`, however
 *   deep and across awaits, carries those fields (AsyncLocalStorage, shared through globalThis by
 *   the tsx-loaded modules and the production build's own copy of them).
 * - Secrets and shoppers' personal data never reach the output: fields by name (`REDACTED_PATHS`),
 *   free text (messages, errors) by `scrubText`.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import pino, { type Logger } from "pino";
import { prettyFactory } from "pino-pretty";

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
const LOG_FORMATS = ["json", "pretty"] as const;
type LogFormat = (typeof LOG_FORMATS)[number];

/** The problem with LOG_LEVEL and LOG_FORMAT as set, for the start-up checks; empty when fine. */
export function loggingProblems(env: Readonly<Record<string, string | undefined>>): string[] {
  const problems: string[] = [];
  const level = env.LOG_LEVEL?.trim();
  if (level && !(LOG_LEVELS as readonly string[]).includes(level.toLowerCase())) {
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got "${level}"`);
  }
  const format = env.LOG_FORMAT?.trim();
  if (format && !(LOG_FORMATS as readonly string[]).includes(format.toLowerCase())) {
    problems.push(`LOG_FORMAT must be json or pretty, got "${format}"`);
  }
  return problems;
}

function levelFrom(env: NodeJS.ProcessEnv): LogLevel {
  const level = env.LOG_LEVEL?.trim().toLowerCase();
  return (LOG_LEVELS as readonly string[]).includes(level ?? "") ? (level as LogLevel) : "info";
}

/** Fields a line carries when logged inside `withLogContext`. */
export interface LogContext {
  shop?: string;
  runId?: string;
  requestId?: string;
}

/** Where the lines go; the demo and the CLI choose (the CLI's stdout is its result). */
interface LoggingChoice {
  /** 1: stdout (the serving processes), 2: stderr (the CLI commands). */
  fd?: 1 | 2;
  /** The format when LOG_FORMAT does not say. */
  format?: LogFormat;
}

/**
 * One per process, shared through globalThis: the production build carries its own copy of this
 * module, and its lines must carry the request's fields and follow the demo's or CLI's choice.
 */
interface Logging {
  context: AsyncLocalStorage<LogContext>;
  choice: LoggingChoice;
  root?: Logger;
}
const state = ((globalThis as Record<symbol, unknown>)[Symbol.for("catalog-chat.logging")] ??= {
  context: new AsyncLocalStorage<LogContext>(),
  choice: {},
} satisfies Logging) as Logging;
const context = state.context;

/** Runs `work` with the fields added to every line it logs (nested contexts add up). */
export function withLogContext<T>(fields: LogContext, work: () => T): T {
  return context.run({ ...context.getStore(), ...fields }, work);
}

/** Names the shop of the request or work under way, from here on (once it is known). */
export function setLogShop(shop: string): void {
  const store = context.getStore();
  if (store) store.shop = shop;
}

/**
 * Fields whose value is a secret or a shopper's personal data, wherever they are logged (at the
 * top or one level down: `{ err: { headers: … } }` is two).
 */
const SECRET_FIELDS = [
  "secretKey",
  "apiKey",
  "accessToken",
  "token",
  "password",
  "authorization",
  "Authorization",
  "metricsToken",
  "hmac",
  "encryptionKey",
  "smtpUrl",
];
const PERSONAL_FIELDS = [
  "email",
  "customerEmail",
  "notifyEmail",
  "name",
  "firstName",
  "lastName",
  "customerName",
  "phone",
  "contact",
];
/** A shopper's words: not `*.message`, which would hide every error's message. */
const SHOPPER_TEXT = ["message", "text", "body", "question"].flatMap((field) =>
  ["", "data.", "payload.", "event.", "event.data."].map((prefix) => `${prefix}${field}`),
);
const HEADERS = [
  "authorization",
  "cookie",
  '["x-shopify-hmac-sha256"]',
  '["x-shopify-access-token"]',
  '["x-signature"]',
];
export const REDACTED_PATHS = [
  ...[...SECRET_FIELDS, ...PERSONAL_FIELDS].flatMap((field) => [field, `*.${field}`]),
  ...SHOPPER_TEXT,
  ...HEADERS.flatMap((header) => {
    const path = header.startsWith("[") ? header : `.${header}`;
    return [`headers${path}`, `*.headers${path}`, `req.headers${path}`];
  }),
];
const CENSOR = "[redacted]";

/** Secret values the process was given: never printed, wherever they turn up in a text. */
function knownSecrets(env: NodeJS.ProcessEnv): string[] {
  const names = [
    "SHOPIFY_API_SECRET",
    "SHOPIFY_API_SECRET_PREVIOUS",
    "ENCRYPTION_KEY",
    "ENCRYPTION_KEY_PREVIOUS",
    "METRICS_TOKEN",
    "INDEX_SECRET_KEY",
    "DEMO_ADMIN_TOKEN",
  ];
  return names
    .flatMap((name) => (env[name] ?? "").split(","))
    .map((value) => value.trim())
    .filter((value) => value.length >= 8);
}

const TEXT_PATTERNS: [RegExp, string][] = [
  // The service's secret keys, Shopify's access tokens, bearer tokens.
  [/\bsvc_sk_[A-Za-z0-9_-]+/g, "svc_sk_[redacted]"],
  [/\bshp(?:at|ca|pa|ss|ua)_[A-Za-z0-9]+/g, "shp_[redacted]"],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, "$1 [redacted]"],
  // A URL's user and password.
  [/([a-z][a-z0-9+.-]*:\/\/)[^\s/@:]+(?::[^\s/@]*)?@/gi, "$1***@"],
  // Email addresses and international phone numbers (a shopper's).
  [/[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g, "[email]"],
  [/\+\d[\d ().-]{6,}\d/g, "[phone]"],
];

/** A free text (a message, an error's message or stack) with secrets and contacts taken out. */
export function scrubText(text: string, env: NodeJS.ProcessEnv = process.env): string {
  let out = text;
  for (const secret of knownSecrets(env)) out = out.split(secret).join(CENSOR);
  for (const [pattern, replacement] of TEXT_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/** Every string in a serialized error scrubbed (nodemailer's `response`, a cause's message, ...). */
function scrubDeep(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return scrubText(value);
  if (depth > 4 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => scrubDeep(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, scrubDeep(item, depth + 1)]),
  );
}

function errorSerializer(error: unknown): unknown {
  if (!(error instanceof Error)) return scrubDeep(error);
  return scrubDeep(pino.stdSerializers.errWithCause(error));
}

function formatFrom(env: NodeJS.ProcessEnv, stream: NodeJS.WriteStream): LogFormat {
  const set = env.LOG_FORMAT?.trim().toLowerCase();
  if (set === "json" || set === "pretty") return set;
  return state.choice.format ?? (stream.isTTY ? "pretty" : "json");
}

function createLogger(env: NodeJS.ProcessEnv = process.env): Logger {
  const stream = state.choice.fd === 2 ? process.stderr : process.stdout;
  // Written at each line through the process's own stream (synchronous for files, pipes and
  // terminals on Linux): nothing is lost at process.exit, and a test can read what is written.
  const destination = { write: (line: string) => stream.write(line) };
  const options: pino.LoggerOptions = {
    level: levelFrom(env),
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: REDACTED_PATHS, censor: CENSOR },
    serializers: { err: errorSerializer, error: errorSerializer },
    mixin: (_merge, _level, logger) => {
      const fields = context.getStore();
      if (!fields) return {};
      const bound = logger.bindings();
      return Object.fromEntries(Object.entries(fields).filter(([key]) => !(key in bound)));
    },
    hooks: {
      logMethod(args, method) {
        const scrubbed: unknown[] = args.map((arg: unknown) =>
          typeof arg === "string" ? scrubText(arg) : arg,
        );
        // pino takes an error's message as the line's msg when none is given: scrubbed too.
        const [first, second] = scrubbed;
        const error = first instanceof Error ? first : (first as { err?: unknown } | null)?.err;
        if (error instanceof Error && typeof second !== "string") {
          scrubbed.splice(1, 0, scrubText(error.message));
        }
        method.apply(this, scrubbed as Parameters<typeof method>);
      },
    },
  };
  if (formatFrom(env, stream) === "json") return pino(options, destination);
  const prettify = prettyFactory({
    colorize: stream.isTTY === true,
    translateTime: "SYS:HH:MM:ss",
    ignore: "component,shop",
    messageFormat: "{if component}[{component}] {end}{if shop}{shop}: {end}{msg}",
    singleLine: true,
  });
  return pino(options, { write: (line: string) => stream.write(prettify(line)) });
}

/** The process's root logger, made on first use from LOG_LEVEL and LOG_FORMAT. */
export function logger(): Logger {
  return (state.root ??= createLogger());
}

/**
 * A part of the app's logger: its lines carry `component` (pretty: `[component] …`). The logger
 * itself is made on the first line, so LOG_LEVEL and the demo's and CLI's choice hold.
 */
export function logFor(component: string): Logger {
  let child: Logger | undefined;
  let of: Logger | undefined;
  return new Proxy({} as Logger, {
    get(_target, property) {
      if (of !== logger()) {
        of = logger();
        child = of.child({ component });
      }
      const value = Reflect.get(child!, property, child) as unknown;
      return typeof value === "function"
        ? (value as (...a: unknown[]) => unknown).bind(child)
        : value;
    },
  });
}

/**
 * For the demo and the CLI commands, before they log: stderr for a command whose stdout is its
 * result, and readable lines unless LOG_FORMAT=json. Also for tests (a fresh logger from `env`).
 */
export function configureLogging(
  options: LoggingChoice & { env?: NodeJS.ProcessEnv } = {},
): Logger {
  state.choice = { fd: options.fd, format: options.format };
  state.root = createLogger(options.env);
  return state.root;
}
