/** The emulator's clock: real time by default, injectable, settable and advanceable. */

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;

export class Clock {
  #fixed: number | undefined;
  #offset = 0;

  constructor(private readonly base: () => number = Date.now) {}

  now(): number {
    return this.#fixed ?? this.base() + this.#offset;
  }

  /** Freezes the clock at `time`; `null` returns to the base clock. */
  set(time: number | null): void {
    this.#fixed = time ?? undefined;
    if (time === null) this.#offset = 0;
  }

  advance(ms: number): void {
    if (this.#fixed === undefined) this.#offset += ms;
    else this.#fixed += ms;
  }

  iso(): string {
    return new Date(this.now()).toISOString();
  }
}

/** "YYYY-MM" of a time, in UTC. */
export function monthKey(time: number): string {
  return new Date(time).toISOString().slice(0, 7);
}

/** "YYYY-MM-DD" of the 1st of the next month, in UTC: when monthly quotas reset. */
export function nextMonthStart(time: number): string {
  const date = new Date(time);
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1))
    .toISOString()
    .slice(0, 10);
}
