import type { Shop } from "@prisma/client";
import type { AdminGraphql } from "../../shopify/admin-graphql";
import type { IndexServiceClient } from "../../index-service/client";
import type { ShopLeases } from "../engine/process-leases.server";
import type { KeptLeases } from "./kept-leases";
import type { PresencesReader, PresencesView } from "./domain-workspaces.server";
import type { PresenceMarketPlan } from "../full/presence-market.server";
import type { LedgerScope } from "../../models/ledger.server";
import { backoffCeilingMs, backoffMs, type BackoffSteps } from "../engine/pacer";
import type { PacerRegistry } from "../engine/pacer-registry.server";

/** What the live worker's parts (scheduling, serving a shop, maintenance) share. */
export interface WorkerContext {
  /** Changes wait this long after their first receipt (the outbox's receivedAt), or until a batch is full. */
  coalesceMs: number;
  batchSize: number;
  quotaProbeEveryMs: number;
  /** From this many products to re-read whole on, the shop gets a full sync instead (0 never). */
  backlogResyncAt: number;
  registry: PacerRegistry;
  leases: ShopLeases;
  /** The leases kept between a shop's passes (kept 0 ms: each pass takes one and gives it back). */
  keptLeases: KeptLeases;
  admin: (shopDomain: string) => Promise<AdminGraphql>;
  serviceClient: (shop: Shop) => IndexServiceClient;
  /** The one clock of the worker and everything it calls. */
  now: () => Date;
  /** A line of the worker's log; `shop`: the shop it is about (a field of the line). */
  log: (message: string, error?: unknown, shop?: string) => void;
  memory: ShopMemory;
  stopped: () => boolean;
  /**
   * Runs work for a shop, unless something is already running in its slot (the shop's own by
   * default: serving it) or the worker stops.
   */
  launch: (shopDomain: string, work: () => Promise<void>, slot?: string) => void;
}

/** Up to this many changes in a shop's last batch, its next pass reads its ledger with the shop. */
export const LEDGER_WITH_PASS_START_MAX = 10;

/**
 * What the worker remembers of each shop between passes, in memory: the backoff after failed
 * batches, products the service refused a moment ago, the last quota probe, the storefront
 * presences last read and their markets, the ledger scopes its last batch went to. Maintenance
 * forgets the shops that are gone.
 */
export class ShopMemory {
  readonly #failures = new Map<string, { count: number; until: number }>();
  readonly #refusedUntil = new Map<string, Map<string, number>>();
  readonly #lastQuotaProbe = new Map<string, number>();
  readonly #coveredRunApplied = new Map<string, string>();
  readonly #presences = new Map<string, { as: string; view: PresencesView }>();
  readonly #marketPlans = new Map<string, { as: string; plans: Map<string, PresenceMarketPlan> }>();
  readonly #ledgerScopes = new Map<
    string,
    { scopes: readonly [LedgerScope, ...LedgerScope[]]; changes: number }
  >();

  constructor(
    private readonly backoff: BackoffSteps,
    private readonly now: () => Date,
    private readonly random: () => number = Math.random,
  ) {}

  /** A shop whose last batch failed waits out its backoff. */
  coolingDown(shopDomain: string): boolean {
    return (this.#failures.get(shopDomain)?.until ?? 0) > this.now().getTime();
  }

  /** After a failed batch the shop waits baseMs × 2^(n-1) with jitter, at most maxMs. */
  failed(shopDomain: string): void {
    const count = (this.#failures.get(shopDomain)?.count ?? 0) + 1;
    const until = this.now().getTime() + backoffMs(count, this.backoff, this.random);
    this.#failures.set(shopDomain, { count, until });
  }

  succeeded(shopDomain: string): void {
    this.#failures.delete(shopDomain);
  }

  /** Products the service refused one by one and that wait before they are tried again. */
  refusedNow(shopDomain: string): string[] {
    const entries = this.#refusedUntil.get(shopDomain);
    if (!entries) return [];
    const at = this.now().getTime();
    for (const [id, until] of entries) if (until <= at) entries.delete(id);
    return [...entries.keys()];
  }

  /** Refused products are tried again after a while (by their attempts), not in every batch. */
  noteRefused(shopDomain: string, left: readonly { productId: string; attempts: number }[]): void {
    const entries = this.#refusedUntil.get(shopDomain) ?? new Map<string, number>();
    const at = this.now().getTime();
    for (const row of left) {
      entries.set(row.productId, at + backoffCeilingMs(row.attempts, this.backoff));
    }
    this.#refusedUntil.set(shopDomain, entries);
  }

  /** Whether new products held for a spent quota may be tried again now. */
  quotaProbeDue(shopDomain: string, at: Date, everyMs: number): boolean {
    return at.getTime() - (this.#lastQuotaProbe.get(shopDomain) ?? 0) >= everyMs;
  }

  noteQuotaProbe(shopDomain: string, at: Date): void {
    this.#lastQuotaProbe.set(shopDomain, at.getTime());
  }

  /** The complete run whose covered changes were last taken out of the shop's outbox. */
  coveredRunApplied(shopDomain: string): string | undefined {
    return this.#coveredRunApplied.get(shopDomain);
  }

  /** null: the covered changes are to be taken out again on the next pass. */
  noteCoveredRunApplied(shopDomain: string, runId: string | null): void {
    if (runId === null) this.#coveredRunApplied.delete(shopDomain);
    else this.#coveredRunApplied.set(shopDomain, runId);
  }

  /**
   * The shop's storefront presences and the domain workspaces found filled, read again only when
   * its row (as the pass read it) says they may have changed: replacing the presences writes the
   * row's `presencesReadAt` and `updatedAt` in the same transaction (replaceStorefrontPresences),
   * and forgetting a domain workspace's fill writes the row's `updatedAt` in the same transaction
   * (forgetDomainRuns). Any other write of the row reads them again too.
   */
  async presencesOf(shop: Shop, read: PresencesReader): Promise<PresencesView> {
    const as = presencesVersionOf(shop);
    const kept = this.#presences.get(shop.shopDomain);
    if (kept?.as === as) return kept.view;
    const view = await read(shop);
    this.#presences.set(shop.shopDomain, { as, view });
    return view;
  }

  /**
   * A storefront domain's market plan (its market's country and currency, whether its prices are
   * read), kept as long as the shop's presences are (presencesOf): a market changed in Shopify
   * sends `markets/*`, whose read of the presences writes the row, and every installed shop's
   * presences are read hourly besides. `read` asks Shopify (presenceMarketPlan).
   */
  async marketPlanOf(
    shop: Shop,
    webPresenceId: string,
    read: () => Promise<PresenceMarketPlan>,
  ): Promise<PresenceMarketPlan> {
    const as = presencesVersionOf(shop);
    let kept = this.#marketPlans.get(shop.shopDomain);
    if (kept?.as !== as) {
      kept = { as, plans: new Map() };
      this.#marketPlans.set(shop.shopDomain, kept);
    }
    const plan = kept.plans.get(webPresenceId) ?? (await read());
    kept.plans.set(webPresenceId, plan);
    return plan;
  }

  /**
   * The ledger scopes (workspaces) the shop's last batch was sent to, its own first, when that
   * batch was small: the next pass reads their ledger with its first statement (passStart), and
   * reads it again on its own when its batch goes elsewhere. After a bigger batch, none: each of
   * that statement's rows carries every column of the shop, its session and its changes, which
   * for a batch of 100 costs more CPU than the statement it saves.
   */
  ledgerScopesOf(shopDomain: string): readonly [LedgerScope, ...LedgerScope[]] | undefined {
    const last = this.#ledgerScopes.get(shopDomain);
    return last && last.changes <= LEDGER_WITH_PASS_START_MAX ? last.scopes : undefined;
  }

  noteLedgerScopes(
    shopDomain: string,
    scopes: readonly [LedgerScope, ...LedgerScope[]],
    changes: number,
  ): void {
    const [first, ...rest] = scopes.map(({ shopDomain, workspaceId }) => ({
      shopDomain,
      workspaceId,
    }));
    this.#ledgerScopes.set(shopDomain, { scopes: [first!, ...rest], changes });
  }

  /** The shops it remembers anything of. */
  shops(): string[] {
    return [
      ...new Set([
        ...this.#failures.keys(),
        ...this.#refusedUntil.keys(),
        ...this.#lastQuotaProbe.keys(),
        ...this.#presences.keys(),
        ...this.#marketPlans.keys(),
        ...this.#ledgerScopes.keys(),
      ]),
    ];
  }

  forget(shopDomain: string): void {
    this.#failures.delete(shopDomain);
    this.#refusedUntil.delete(shopDomain);
    this.#lastQuotaProbe.delete(shopDomain);
    this.#coveredRunApplied.delete(shopDomain);
    this.#presences.delete(shopDomain);
    this.#marketPlans.delete(shopDomain);
    this.#ledgerScopes.delete(shopDomain);
  }
}

/** The shop row's version of its presences: written whenever they are read or a fill forgotten. */
function presencesVersionOf(shop: Shop): string {
  return `${shop.presencesReadAt?.getTime() ?? "never"} ${shop.updatedAt.getTime()}`;
}
