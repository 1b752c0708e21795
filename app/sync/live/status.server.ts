import type { Shop } from "@prisma/client";
import prisma from "../../db.server";
import { keyHeldUntil } from "../../models/rate-windows.server";
import { findShop, workspaceOf } from "../../models/shops.server";
import { HELD_FOR_QUOTA_PREFIX } from "../../models/outbox.server";
import { nextQuotaReset, quotaStanding } from "../../models/quota-usage.server";
import { pacers, sendingTierOf } from "../engine/pacers.server";
import { serviceKeyIdOf } from "../shop/service-keys.server";
import { LIVE_SEEN_MARK } from "./apply-changes.server";

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
  const [pending, oldest, lastApplied, failing] = await Promise.all([
    prisma.pendingChange.count({ where: { shopDomain } }),
    prisma.pendingChange.findFirst({ where: { shopDomain }, orderBy: { receivedAt: "asc" } }),
    workspaceId
      ? prisma.indexedItem.findFirst({
          where: { shopDomain, workspaceId, kind: "product", seenRunId: LIVE_SEEN_MARK },
          orderBy: { sentAt: "desc" },
        })
      : null,
    prisma.pendingChange.findFirst({
      where: {
        shopDomain,
        attempts: { gt: 0 },
        lastError: { not: null },
        NOT: { lastError: { startsWith: HELD_FOR_QUOTA_PREFIX } },
      },
      orderBy: [{ attempts: "desc" }, { receivedAt: "asc" }],
    }),
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
  const held = await prisma.pendingChange.count({
    where: { shopDomain, lastError: { startsWith: HELD_FOR_QUOTA_PREFIX } },
  });
  if (held > 0 && shop) {
    const standing = await quotaStanding(shopDomain, sendingTierOf(shop), "product", now);
    if (standing.remaining === 0) {
      const reset = nextQuotaReset(now);
      if (!pausedUntil || reset > pausedUntil) pausedUntil = reset;
    }
  }

  return {
    pending,
    oldestPendingAt: oldest?.receivedAt ?? null,
    lastAppliedAt: lastApplied?.sentAt ?? null,
    retrying:
      failing && failing.lastError
        ? { count: failing.attempts, lastError: failing.lastError }
        : null,
    pausedUntil,
  };
}
