import type { Shop } from "@prisma/client";
import { isTier, RATE_LIMITS, type Tier } from "../../index-service/tiers";
import { Pacer, type PacerOptions, type RetryEvent } from "./pacer";

/** What every pacer of a registry shares (backoff steps, clock); the limits come from the tier. */
export type PacerDefaults = Omit<PacerOptions, "limits" | "onRetry">;

type RetryListener = (event: RetryEvent) => void;

interface Entry {
  tier: Tier;
  pacer: Pacer;
  listeners: Set<RetryListener>;
}

/**
 * The one pacer of each shop in this process, so that the full sync, live updates and every other
 * writer of a shop share the tier's per-minute and per-hour limits and a 429's deadline. A shop
 * whose tier changed gets a new pacer with the new limits.
 */
export class PacerRegistry {
  readonly #entries = new Map<string, Entry>();

  constructor(private readonly defaults: PacerDefaults = {}) {}

  pacerFor(shopDomain: string, tier: Tier): Pacer {
    const existing = this.#entries.get(shopDomain);
    if (existing && existing.tier === tier) return existing.pacer;
    const listeners = existing?.listeners ?? new Set<RetryListener>();
    const pacer = new Pacer({
      ...this.defaults,
      limits: RATE_LIMITS[tier],
      onRetry: (event) => {
        for (const listener of listeners) listener(event);
      },
    });
    this.#entries.set(shopDomain, { tier, pacer, listeners });
    return pacer;
  }

  /** The shop's pacer if one exists in this process (never creates one). */
  existingPacer(shopDomain: string): Pacer | undefined {
    return this.#entries.get(shopDomain)?.pacer;
  }

  /** Told of every retry of the shop's requests (429 waits, 5xx backoffs); returns an unsubscribe. */
  onRetry(shopDomain: string, tier: Tier, listener: RetryListener): () => void {
    this.pacerFor(shopDomain, tier);
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
