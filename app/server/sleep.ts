/**
 * Waiting out a rate limit (Shopify's cost bucket, the service's window, a 429's retryAfter) or a
 * backoff, and the process's CPU while a piece of work waited: the live worker's CPU per change
 * (`catalog_chat_live_worker_cpu_seconds_total`) leaves out what the rest of the process did
 * meanwhile (the intake, the poll, other shops), which a pass held up by Shopify's bucket for a
 * minute would otherwise count as its own (decision 0061).
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** Node's timers hold at most 2^31-1 ms (24.8 days); a longer delay fires at once, every time. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

interface SleepAccount {
  /** Sleeps under way: concurrent ones count their common time once. */
  sleeping: number;
  since: NodeJS.CpuUsage | null;
  cpuMicros: number;
}

const accounts = new AsyncLocalStorage<SleepAccount>();

const microsOf = (usage: NodeJS.CpuUsage) => usage.user + usage.system;

/** Waits `ms` milliseconds, however long, in timer-sized steps; a malformed wait is no wait. */
export async function sleep(ms: number, now: () => number = Date.now): Promise<void> {
  if (!(ms > 0)) return;
  const account = accounts.getStore();
  if (account && account.sleeping++ === 0) account.since = process.cpuUsage();
  try {
    const until = now() + ms;
    for (let left = ms; left > 0; left = until - now()) {
      await new Promise<void>((resolve) => setTimeout(resolve, Math.min(left, MAX_TIMER_MS)));
    }
  } finally {
    if (account && --account.sleeping === 0 && account.since) {
      account.cpuMicros += microsOf(process.cpuUsage(account.since));
      account.since = null;
    }
  }
}

/**
 * Runs `work`, handing it a reading of the process's CPU (microseconds) spent while `work`'s own
 * calls of `sleep` were under way; work started from inside `work` counts as its own.
 */
export function countingSleeps<T>(work: (sleptCpuMicros: () => number) => Promise<T>): Promise<T> {
  const account: SleepAccount = { sleeping: 0, since: null, cpuMicros: 0 };
  const sleptCpuMicros = () =>
    account.cpuMicros + (account.since ? microsOf(process.cpuUsage(account.since)) : 0);
  return accounts.run(account, () => work(sleptCpuMicros));
}
