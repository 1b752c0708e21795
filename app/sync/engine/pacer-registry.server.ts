/**
 * The pacer registry: the one Pacer (pacer.ts) of each shop in this process, shared by its full
 * sync, its live changes and every other writer, and the gate that counts a key's rate windows in
 * the database (models/key-rate-windows.server.ts) for every process using that key.
 */
import type { Shop } from "@prisma/client";
import { isTier, RATE_LIMITS, type RateLimits, type Tier } from "../../index-service/tiers";
import { holdKey, takeKeyPlace } from "../../models/key-rate-windows.server";
import { Pacer, type PacerOptions, type RateGate, type RetryEvent } from "./pacer";

/** What every pacer of a registry shares (backoff steps, clock); the limits come from the tier. */
export type PacerDefaults = Omit<PacerOptions, "limits" | "onRetry" | "gate">;

/** The windows of the key `keyId` shared with other processes, or null for the pacer's own. */
export type GateFactory = (keyId: string, limits: RateLimits, now?: () => number) => RateGate;

/** The key's windows in the database (`RateWindow`): every process of the app counts there. */
export const databaseGate: GateFactory = (keyId, limits, now) => ({
  take: (condition, places) => takeKeyPlace(keyId, limits, now, condition, places),
  hold: (until) => holdKey(keyId, until),
});

type RetryListener = (event: RetryEvent) => void;

interface Entry {
  tier: Tier;
  keyId: string | undefined;
  pacer: Pacer;
  listeners: Set<RetryListener>;
}

/**
 * The one pacer of each shop in this process, so that the full sync, live updates and every other
 * writer of a shop share its concurrency, retries and a 429's deadline. The tier's per-minute and
 * per-hour windows are the key's, counted in the database for every process and every shop saved
 * with that key (`keyId`, see `serviceKeyIdOf`); a pacer without a key id counts on its own. A
 * shop whose tier or key changed gets a new pacer.
 */
export class PacerRegistry {
  readonly #entries = new Map<string, Entry>();

  constructor(
    private readonly defaults: PacerDefaults = {},
    private readonly gateFor: GateFactory | null = databaseGate,
  ) {}

  pacerFor(shopDomain: string, tier: Tier, keyId?: string): Pacer {
    const existing = this.#entries.get(shopDomain);
    if (existing && existing.tier === tier && existing.keyId === keyId) return existing.pacer;
    const listeners = existing?.listeners ?? new Set<RetryListener>();
    const limits = RATE_LIMITS[tier];
    const gate = keyId && this.gateFor ? this.gateFor(keyId, limits, this.defaults.now) : undefined;
    const pacer = new Pacer({
      ...this.defaults,
      limits,
      ...(gate ? { gate } : {}),
      onRetry: (event) => {
        for (const listener of listeners) listener(event);
      },
    });
    this.#entries.set(shopDomain, { tier, keyId, pacer, listeners });
    return pacer;
  }

  /** The shop's pacer if one exists in this process (never creates one). */
  existingPacer(shopDomain: string): Pacer | undefined {
    return this.#entries.get(shopDomain)?.pacer;
  }

  /** Told of every retry of the shop's requests (429 waits, 5xx backoffs); returns an unsubscribe. */
  onRetry(shopDomain: string, tier: Tier, listener: RetryListener, keyId?: string): () => void {
    this.pacerFor(shopDomain, tier, keyId);
    const entry = this.#entries.get(shopDomain);
    entry?.listeners.add(listener);
    return () => entry?.listeners.delete(listener);
  }

  /** Forgets a shop (uninstalled, redacted). */
  forget(shopDomain: string): void {
    this.#entries.delete(shopDomain);
  }
}

/** The process's registry: what the app server, the worker and the CLI use. */
export const pacers = new PacerRegistry();

/** The tier a shop is paced by: a shop whose tier is not known yet gets the lowest limits. */
export function sendingTierOf(shop: Pick<Shop, "tier">): Tier {
  return isTier(shop.tier) ? shop.tier : "personal";
}
