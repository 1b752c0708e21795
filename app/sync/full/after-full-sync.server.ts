/**
 * What other features do once a full sync has sent a shop's catalogue into its workspace. The run
 * calls the steps registered here instead of importing those features
 * (docs/decisions/0067-no-import-cycles.md). A feature registers its step when its module is
 * loaded, so every process that carries full syncs must load that module: the storefront's step
 * (app/shop/leave-former-workspace.server.ts) comes with the live worker's chores, which the app
 * server's background work and `npm run worker` both import.
 */
import type { AdminGraphql } from "../../shopify/admin-graphql";
import { logFor } from "../../server/log";

const log = logFor("sync");

export interface AfterFullSyncStep {
  run(shopDomain: string, admin: AdminGraphql): Promise<unknown>;
  /** The log line when `run` throws. */
  failure(shopDomain: string): string;
}

/** By name: a module loaded again (the dev server reloads it) replaces its step. */
const steps = new Map<string, AfterFullSyncStep>();

/** Registers `step` for every full sync this process carries. */
export function afterFullSync(name: string, step: AfterFullSyncStep): void {
  steps.set(name, step);
}

/** Runs every registered step in turn; one that throws is logged, and the run stays done. */
export async function runAfterFullSync(shopDomain: string, admin: AdminGraphql): Promise<void> {
  for (const step of steps.values()) {
    try {
      await step.run(shopDomain, admin);
    } catch (error) {
      log.error({ err: error }, step.failure(shopDomain));
    }
  }
}
