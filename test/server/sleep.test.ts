/**
 * The CPU a piece of work's sleeps span (app/server/sleep.ts), which the live worker leaves out of
 * its CPU per change: the process's CPU while any of the work's sleeps is under way counts, once
 * however many of them overlap; CPU outside its sleeps, and other work's sleeps, do not. No timer
 * can fire during synchronous work, so CPU burnt right after a sleep starts is within it whatever
 * the machine's load.
 */
import { describe, expect, it } from "vitest";
import { countingSleeps, sleep } from "../../app/server/sleep";
import { burnCpu } from "../../testkit/burn-cpu";

const microsOf = (usage: NodeJS.CpuUsage) => usage.user + usage.system;

describe("counting sleeps", () => {
  it("counts the process's CPU while the work slept, once for overlapping sleeps", async () => {
    const from = process.cpuUsage();
    const slept = await countingSleeps(async (sleptCpuMicros) => {
      const both = Promise.all([sleep(5), sleep(10)]);
      burnCpu(60_000);
      await both;
      return sleptCpuMicros();
    });
    const total = microsOf(process.cpuUsage(from));
    expect(slept).toBeGreaterThanOrEqual(60_000);
    // Counted once per sleep, it would be over 120 ms: more than the process spent in all.
    expect(slept).toBeLessThanOrEqual(total);
  });

  it("leaves out the CPU outside the work's sleeps, and sleeps that are not the work's", async () => {
    const outside = sleep(20);
    const slept = await countingSleeps(async (sleptCpuMicros) => {
      burnCpu(40_000);
      await outside;
      burnCpu(40_000);
      return sleptCpuMicros();
    });
    expect(slept).toBeLessThan(40_000);
  });

  it("counts the sleeps of work started from inside, and a sleep still under way", async () => {
    await countingSleeps(async (sleptCpuMicros) => {
      const inner = Promise.resolve().then(() => sleep(10));
      // The inner work has started its sleep; no macrotask has run since, so it is under way.
      await Promise.resolve();
      await Promise.resolve();
      burnCpu(30_000);
      expect(sleptCpuMicros()).toBeGreaterThanOrEqual(30_000);
      await inner;
    });
  });
});
