/** Node's timers hold at most 2^31-1 ms (24.8 days); a longer delay fires at once, every time. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Waits `ms` milliseconds, however long, in timer-sized steps; a malformed wait is no wait. */
export async function sleep(ms: number): Promise<void> {
  if (!(ms > 0)) return;
  const until = Date.now() + ms;
  for (let left = ms; left > 0; left = until - Date.now()) {
    await new Promise<void>((resolve) => setTimeout(resolve, Math.min(left, MAX_TIMER_MS)));
  }
}
