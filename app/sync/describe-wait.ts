/** How long until sending resumes, for the merchant: "in 30 s", or "at 2026-11-23 14:05 UTC". */
export function describeWait(waitMs: number, now: number = Date.now()): string {
  if (waitMs < 120_000) return `in ${Math.ceil(Math.max(0, waitMs) / 1000)} s`;
  return `at ${new Date(now + waitMs).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
