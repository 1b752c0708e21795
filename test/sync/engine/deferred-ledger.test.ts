/**
 * The ledger rows of a live pass's sends, left to the pass while its requests go together on
 * places taken together (decision 0063): once a request goes apart (here, its places no longer
 * fresh), the rows acknowledged so far are written before it, and what it gets acknowledged is
 * written at once, not left waiting for the pass's end. On the run's database.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "@prisma/client";
import { prepareAppEnvironment } from "../../../testkit/app-environment";
import prisma from "../../../app/models/db.server";
import {
  indexedHashes,
  recordDeliveredTogether,
  type DeliveredWrite,
  type LedgerScope,
} from "../../../app/models/ledger.server";
import type { IndexServiceClient } from "../../../app/index-service/client";
import type { IndexProduct } from "../../../app/index-service/types";
import { RATE_LIMITS } from "../../../app/index-service/tiers";
import { Pacer, PREPAID_FRESH_MS, type SendGuard } from "../../../app/sync/engine/pacer";
import { sendAndSettle } from "../../../app/sync/engine/send-and-settle.server";

const SHOP = "deferred-ledger.myshopify.com";
const own: LedgerScope = { shopDomain: SHOP, workspaceId: "deferred-ledger-com" };
const domain: LedgerScope = { shopDomain: `${SHOP}#fr`, workspaceId: "deferred-ledger-fr" };

const clear = () =>
  prisma.indexedItem.deleteMany({
    where: { shopDomain: { in: [own.shopDomain, domain.shopDomain] } },
  });

beforeAll(async () => {
  await prepareAppEnvironment();
  await clear();
});
afterAll(clear);

/** A service that acknowledges every product it is sent. */
const client = {
  bulkUpsertProducts: async (products: readonly IndexProduct[]) => ({
    status: 200,
    data: { successfulIds: products.map((p) => p.id), failedItems: [], processed: products.length },
  }),
} as unknown as IndexServiceClient;

const hashIn = async (scope: LedgerScope) =>
  (await indexedHashes(scope, "product", ["1"])).get("1");

describe("a pass's ledger rows, left to the pass while its requests go together", () => {
  it("are written before a request that goes apart, and what it gets acknowledged at once", async () => {
    const clock = { now: 1_000_000 };
    const guard: SendGuard = Object.assign(async () => undefined, {
      condition: () => Prisma.sql`1 = 1`,
    });
    const pacer = new Pacer({
      limits: RATE_LIMITS.personal,
      gate: { take: async () => ({ waitMs: 0, conditionHeld: true }), hold: async () => undefined },
      now: () => clock.now,
    });
    const prepaid = (await pacer.takePlaces(2, guard))!;
    const deferred: DeliveredWrite[] = [];
    prepaid.apart = () => recordDeliveredTogether(deferred.splice(0));
    const send = (scope: LedgerScope, hash: string) =>
      sendAndSettle({
        scope,
        tier: "personal",
        kind: "product",
        action: "upsert",
        client,
        pacer,
        now: () => new Date(clock.now),
        items: [{ id: "1", name: hash } as IndexProduct],
        idOf: (item) => item.id,
        payloadOf: (item) => item,
        hashOf: (item) => item.name,
        isNew: () => true,
        seenMark: "live",
        guard,
        prepaid,
        deferredLedger: deferred,
        holdBack: async () => [],
      });

    await send(own, "own-hash");
    // Together: the shop's row waits for the pass.
    expect(deferred).toHaveLength(1);
    expect(await hashIn(own)).toBeUndefined();

    clock.now += PREPAID_FRESH_MS + 1;
    await send(domain, "domain-hash");
    // Apart: the shop's row was written before the request, the domain's row right after it.
    expect(deferred).toHaveLength(0);
    expect(await hashIn(own)).toBe("own-hash");
    expect(await hashIn(domain)).toBe("domain-hash");
  });
});
