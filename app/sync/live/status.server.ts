import type { Shop } from "@prisma/client";
import { keyHeldUntil } from "../../models/key-rate-windows.server";
import { findShop, workspaceOf } from "../../models/shops.server";
import { lastSentUnderMark } from "../../models/ledger.server";
import { oldestLookupAt } from "../../models/lookups.server";
import {
  heldForQuotaCount,
  mostRetriedChange,
  oldestPendingChange,
  pendingChangeCount,
} from "../../models/outbox.server";
import { nextQuotaReset } from "../../index-service/tiers";
import { quotaStanding } from "../../models/quota-usage.server";
import { pacers, sendingTierOf } from "../engine/pacer-registry.server";
import { serviceKeyIdOf } from "../../shop/service-keys.server";
import { LIVE_SEEN_MARK } from "./apply-changes.server";
import { workersStoppedSince } from "./worker-beat";

export interface LiveStatus {
  /** Product changes waiting to be sent. */
  pending: number;
  /** When the oldest of them came in. */
  oldestPendingAt: Date | null;
  /** When the index last received a live product change (full syncs do not count). */
  lastAppliedAt: Date | null;
  /** Sending keeps failing and is being retried: how often so far, and the last reason. */
  retrying: { count: number; lastError: string } | null;
  /** Nothing (or no new product) is sent before this: a 429's deadline, or the quota's reset. */
  pausedUntil: Date | null;
  /** No live worker has run since then while changes wait (none is running). */
  workersStoppedAt: Date | null;
}

/** The shop's key id, or undefined when its saved key cannot be read (the page still shows). */
function safeKeyId(shop: Shop): string | undefined {
  try {
    return serviceKeyIdOf(shop);
  } catch {
    return undefined;
  }
}

/** What the dashboard says about live updates of a shop. */
export async function liveStatus(shopDomain: string, now: Date = new Date()): Promise<LiveStatus> {
  const shop = await findShop(shopDomain);
  const workspaceId = shop ? workspaceOf(shop) : null;
  const [pending, oldest, oldestLookup, lastApplied, failing] = await Promise.all([
    pendingChangeCount(shopDomain),
    oldestPendingChange(shopDomain),
    oldestLookupAt(shopDomain),
    workspaceId ? lastSentUnderMark({ shopDomain, workspaceId }, "product", LIVE_SEEN_MARK) : null,
    mostRetriedChange(shopDomain),
  ]);

  let pausedUntil: Date | null = null;
  // The key's deadline is shared: a 429 met by whichever process sends for the shop (or by
  // another shop on the same key) shows here, on any instance.
  const keyId = shop ? safeKeyId(shop) : undefined;
  const rateLimitedUntil = Math.max(
    pacers.existingPacer(shopDomain)?.pausedUntil ?? 0,
    keyId ? await keyHeldUntil(keyId) : 0,
  );
  if (rateLimitedUntil > now.getTime()) pausedUntil = new Date(rateLimitedUntil);
  const held = await heldForQuotaCount(shopDomain);
  if (held > 0 && shop) {
    const standing = await quotaStanding(shopDomain, sendingTierOf(shop), "product", now);
    if (standing.remaining === 0) {
      const reset = nextQuotaReset(now);
      if (!pausedUntil || reset > pausedUntil) pausedUntil = reset;
    }
  }

  const oldestPendingAt = oldest?.receivedAt ?? null;
  return {
    pending,
    oldestPendingAt,
    lastAppliedAt: lastApplied?.sentAt ?? null,
    retrying:
      failing && failing.lastError
        ? { count: failing.attempts, lastError: failing.lastError }
        : null,
    pausedUntil,
    workersStoppedAt: await workersStoppedSince(earliest(oldestPendingAt, oldestLookup), now),
  };
}

const earliest = (a: Date | null, b: Date | null): Date | null =>
  a && b ? (a < b ? a : b) : (a ?? b);
