import { readFileSync } from "node:fs";

/** User + system CPU time of a process so far, in ms (Linux, from /proc/<pid>/stat). */
export function cpuTimeMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}
