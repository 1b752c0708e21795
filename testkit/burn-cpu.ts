/**
 * Keeps this process's CPU busy, synchronously, until it has spent `micros` more of it (user +
 * system). No timer can fire meanwhile: tests of what counts CPU during a wait use it.
 */
export function burnCpu(micros: number): void {
  const from = process.cpuUsage();
  for (;;) {
    const used = process.cpuUsage(from);
    if (used.user + used.system >= micros) return;
  }
}
