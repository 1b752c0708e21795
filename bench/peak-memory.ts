/**
 * Samples this process's memory every 20 ms until `stop()`, which returns the peaks in bytes.
 * A loop that rarely yields to timers calls `sample()` itself.
 */
export function samplePeakMemory(): {
  sample(): void;
  stop(): { baseRss: number; peakRss: number; peakHeap: number };
} {
  const baseRss = process.memoryUsage().rss;
  let peakRss = baseRss;
  let peakHeap = 0;
  const sample = () => {
    const usage = process.memoryUsage();
    peakRss = Math.max(peakRss, usage.rss);
    peakHeap = Math.max(peakHeap, usage.heapUsed);
  };
  sample();
  const timer = setInterval(sample, 20);
  return {
    sample,
    stop() {
      clearInterval(timer);
      sample();
      return { baseRss, peakRss, peakHeap };
    },
  };
}
