import { configureLogging } from "../app/server/log";

/** One line of the app's log as written (JSON), with its text. */
export type LogLine = Record<string, unknown> & { level: string; msg: string };

export interface CapturedLogs {
  /** Every line the app logged since the capture began, parsed. */
  lines(): LogLine[];
  /** Everything written, as written: what an operator's log collector would store. */
  text(): string;
  restore(): void;
}

/**
 * Catches what the app logs in this process (its modules and the production build's, which share
 * one logger), as JSON lines on stdout, from `LOG_LEVEL` in `env` (default info). Other writes to
 * stdout pass through.
 */
export function captureLogs(env: NodeJS.ProcessEnv = process.env): CapturedLogs {
  const written: string[] = [];
  const stdout = process.stdout;
  const original = stdout.write;
  stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
    const text = typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString();
    if (text.startsWith('{"level":')) {
      written.push(text);
      return true;
    }
    return (original as (...args: unknown[]) => boolean).call(stdout, chunk, ...rest);
  }) as typeof stdout.write;
  configureLogging({ fd: 1, env: { ...env, LOG_FORMAT: "json" } });
  return {
    lines: () =>
      written
        .join("")
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as LogLine),
    text: () => written.join(""),
    restore: () => {
      stdout.write = original;
      configureLogging();
    },
  };
}
