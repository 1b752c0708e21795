/**
 * The CPU a piece of work's sleeps span (app/server/sleep.ts), which the live worker leaves out of
 * its CPU per change: the rest of the process's work while it slept counts, once however many of
 * its sleeps overlap; its own work between sleeps, and other work's sleeps, do not.
 */
import { describe, expect, it } from "vitest";
import { countingSleeps, sleep } from "../../app/server/sleep";

const microsOf = (usage: NodeJS.CpuUsage) => usage.user + usage.system;

/** Keeps the CPU busy until the process has spent `micros` more of it. */
function burn(micros: number): void {
  const from = process.cpuUsage();
  while (microsOf(process.cpuUsage(from)) < micros);
}

/** Burns CPU on the event loop's next turn, as the rest of the process does while work sleeps. */
const burnElsewhere = (micros: number) =>
  new Promise<void>((resolve) =>
    setImmediate(() => {
      burn(micros);
      resolve();
    }),
  );

describe("counting sleeps", () => {
  it("counts the process's CPU while the work slept, once for overlapping sleeps", async () => {
    const from = process.cpuUsage();
    let elsewhere: Promise<void> = Promise.resolve();
    const slept = await countingSleeps(async (sleptCpuMicros) => {
      // Burns before the sleeps' timers can fire: within both sleeps.
      elsewhere = burnElsewhere(60_000);
      await Promise.all([sleep(5), sleep(10)]);
      return sleptCpuMicros();
    });
    await elsewhere;
    const total = microsOf(process.cpuUsage(from));
    expect(slept).toBeGreaterThanOrEqual(60_000);
    // Counted twice, it would be over 120 ms, more than the process spent in all.
    expect(slept).toBeLessThanOrEqual(total);
  });

  it("leaves out the work's own CPU between sleeps and sleeps outside it", async () => {
    const outside = sleep(20);
    const slept = await countingSleeps(async (sleptCpuMicros) => {
      burn(40_000);
      await outside;
      burn(40_000);
      return sleptCpuMicros();
    });
    expect(slept).toBeLessThan(40_000);
  });

  it("counts the sleeps of work started from inside, and a sleep still under way", async () => {
    await countingSleeps(async (sleptCpuMicros) => {
      const inner = Promise.resolve().then(() => sleep(10));
      const elsewhere = burnElsewhere(30_000);
      await elsewhere;
      expect(sleptCpuMicros()).toBeGreaterThanOrEqual(30_000);
      await inner;
    });
  });
});
