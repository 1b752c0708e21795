/** What `process.memoryUsage()` said at the moment resident memory peaked, in bytes. */
export interface MemoryAtPeak {
  rss: number;
  /** V8's heap as committed (used and free pages). */
  heapTotal: number;
  /** Memory held outside the heap by JavaScript objects: Buffers, ArrayBuffers, Wasm memory. */
  external: number;
}

/**
 * Samples this process's memory every 20 ms until `stop()`, which returns the peaks in bytes and
 * what the memory was made of when RSS peaked (the rest of RSS is Node, native libraries and
 * malloc's own).
 * A loop that rarely yields to timers calls `sample()` itself.
 */
export function samplePeakMemory(): {
  sample(): void;
  stop(): { baseRss: number; peakRss: number; peakHeap: number; atPeak: MemoryAtPeak };
} {
  const atStart = process.memoryUsage();
  const baseRss = atStart.rss;
  let atPeak: MemoryAtPeak = {
    rss: baseRss,
    heapTotal: atStart.heapTotal,
    external: atStart.external,
  };
  let peakHeap = atStart.heapUsed;
  const sample = () => {
    const usage = process.memoryUsage();
    if (usage.rss > atPeak.rss) {
      atPeak = { rss: usage.rss, heapTotal: usage.heapTotal, external: usage.external };
    }
    peakHeap = Math.max(peakHeap, usage.heapUsed);
  };
  sample();
  const timer = setInterval(sample, 20);
  return {
    sample,
    stop() {
      clearInterval(timer);
      sample();
      return { baseRss, peakRss: atPeak.rss, peakHeap, atPeak };
    },
  };
}

/** "heap 120 committed, external 30, the rest 90 MB" of a peak's make-up. */
export function describePeak({ rss, heapTotal, external }: MemoryAtPeak): string {
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
  return `at the peak: heap ${mb(heapTotal)} MB committed, external ${mb(external)} MB, the rest ${mb(rss - heapTotal - external)} MB`;
}
