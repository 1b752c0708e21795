import type { SyncRun } from "@prisma/client";
import { isFinishedBulkStatus } from "../../shopify/bulk-operation";
import { exportStatusesOfRun } from "../../models/bulk-exports.server";
import { pendingCount, stagedCount } from "../../models/staged-items.server";
import type { SyncPhase } from "../../models/sync-runs.server";
import { runExportsOf } from "./run-exports";

export interface RunProgress {
  phase: SyncPhase;
  label: string;
  /** What `done` and `total` count in this phase, plural ("exports ready", "items sent"). */
  unit: string;
  /** 0–100 across the whole run. */
  percent: number;
  done: number;
  total: number;
}

// Shares of the bar: Shopify's export, reading it, sending, cleaning up.
const SPANS: Record<SyncPhase, [number, number]> = {
  request: [0, 10],
  export: [10, 40],
  plan: [40, 40],
  send: [40, 92],
  clean: [92, 100],
  done: [100, 100],
};

const LABELS: Record<SyncPhase, string> = {
  request: "Exporting from Shopify",
  export: "Reading the export",
  plan: "Planning within your quota",
  send: "Sending to the search service",
  clean: "Removing what your store no longer has",
  done: "Done",
};

const UNITS: Record<SyncPhase, string> = {
  request: "exports ready",
  export: "items read",
  plan: "items planned",
  send: "items sent",
  clean: "items removed",
  done: "items",
};

/** Where a run is, for the dashboard's progress bar. */
export async function runProgress(run: SyncRun): Promise<RunProgress> {
  const phase = (run.state === "running" ? run.phase : "done") as SyncPhase;
  let done = 0;
  let total = 0;
  if (phase === "request") {
    const exports = await exportStatusesOfRun(run.id);
    total = Math.max(1, runExportsOf(run.exportedTypes.split(",")).length);
    done = exports.filter((e) => isFinishedBulkStatus(e.status)).length;
  } else if (phase === "export") {
    total = run.productsTotal + run.postsTotal;
    done = run.productsUnchanged + run.postsUnchanged + (await stagedCount(run.id));
  } else if (phase === "send" || phase === "clean") {
    const action = phase === "send" ? "upsert" : "delete";
    total = await stagedCount(run.id, action);
    done = total - (await pendingCount(run.id, action));
  }
  const [from, to] = SPANS[phase];
  const share = total > 0 ? Math.min(1, done / total) : 1;
  return {
    phase,
    label: LABELS[phase],
    unit: UNITS[phase],
    percent: Math.round(from + (to - from) * share),
    done,
    total,
  };
}
