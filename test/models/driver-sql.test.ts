/**
 * Statements sent to the driver adapter without Prisma's engine (`driverQuery`, `driverExecute`)
 * must write what the engine writes: a date written either way is the same value to the
 * database's comparisons (SQLite compares dates as text), rows come back by column name, the
 * client's `$disconnect` does not leave a dead driver behind, and SQLite's "busy" is known to
 * `retryWhileBusy`. On the run's database (SQLite, or PostgreSQL with TEST_DATABASE=postgresql).
 */
import { Prisma, type Shop } from "@prisma/client";
import { getLogs } from "@prisma/debug";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { prepareAppEnvironment } from "../../testkit/app-environment";
import { onPostgres } from "../../testkit/test-database";
import prisma, {
  createPrismaClient,
  driverExecute,
  driverQuery,
  isDatabaseBusy,
  modelRowOf,
  retryWhileBusy,
} from "../../app/models/db.server";

const SHOP = "driver-sql.myshopify.com";

beforeAll(async () => {
  await prepareAppEnvironment();
});

beforeEach(async () => {
  await prisma.webhookReceipt.deleteMany({ where: { shopDomain: SHOP } });
});

const receipt = (webhookId: string, receivedAt: Date) =>
  Prisma.sql`INSERT INTO "WebhookReceipt" ("webhookId", "shopDomain", "topic", "receivedAt")
    VALUES (${webhookId}, ${SHOP}, 'products/update', ${receivedAt})`;

describe("driverQuery and driverExecute", () => {
  it("write a date the engine's queries find and order with the engine's own", async () => {
    const at = new Date("2026-11-27T10:11:12.345Z");
    expect(await driverExecute(receipt("by-driver", at))).toBe(1);
    await prisma.webhookReceipt.create({
      data: { webhookId: "by-engine", shopDomain: SHOP, topic: "products/update", receivedAt: at },
    });
    const later = new Date(at.getTime() + 1);
    await driverExecute(receipt("by-driver-later", later));

    // The model query's own comparison: equal to `at` finds both rows written at `at`.
    const equal = await prisma.webhookReceipt.findMany({
      where: { shopDomain: SHOP, receivedAt: at },
      orderBy: { webhookId: "asc" },
    });
    expect(equal.map((row) => row.webhookId)).toEqual(["by-driver", "by-engine"]);
    const after = await prisma.webhookReceipt.findMany({
      where: { shopDomain: SHOP, receivedAt: { gt: at } },
    });
    expect(after.map((row) => row.webhookId)).toEqual(["by-driver-later"]);
    expect(
      (await prisma.webhookReceipt.findUnique({ where: { webhookId: "by-driver" } }))?.receivedAt,
    ).toEqual(at);
  });

  it("leave none of a statement's values in Prisma's debug history once done", async () => {
    // The driver adapters log each statement with its values to @prisma/debug, which keeps the
    // last 100 entries with debugging off: a full sync's staged documents lived on there.
    const marker = "kept-by-the-debug-history-9f3c";
    await driverExecute(
      Prisma.sql`INSERT INTO "WebhookReceipt" ("webhookId", "shopDomain", "topic", "receivedAt")
        VALUES (${marker}, ${SHOP}, 'products/update', ${new Date()})`,
    );
    await driverQuery(
      Prisma.sql`SELECT "webhookId" FROM "WebhookReceipt" WHERE "webhookId" = ${`${marker}-read`}`,
    );
    await expect(
      driverExecute(Prisma.sql`INSERT INTO "NoSuchTable" ("x") VALUES (${`${marker}-failed`})`),
    ).rejects.toThrow();
    expect(getLogs(1_000_000)).not.toContain(marker);
  });

  it("return rows by column name, RETURNING included", async () => {
    const inserted = await driverQuery<{ webhookId: string }>(Prisma.sql`
      INSERT INTO "WebhookReceipt" ("webhookId", "shopDomain", "topic", "receivedAt")
      VALUES ('a', ${SHOP}, 't', ${new Date()}), ('b', ${SHOP}, 't', ${new Date()})
      ON CONFLICT ("webhookId") DO NOTHING RETURNING "webhookId"`);
    expect(inserted.map((row) => row.webhookId).sort()).toEqual(["a", "b"]);
    const again = await driverQuery<{ webhookId: string }>(Prisma.sql`
      INSERT INTO "WebhookReceipt" ("webhookId", "shopDomain", "topic", "receivedAt")
      VALUES ('a', ${SHOP}, 't', ${new Date()}) ON CONFLICT ("webhookId") DO NOTHING RETURNING "webhookId"`);
    expect(again).toEqual([]);
    const rows = await driverQuery<{ id: string; topic: string }>(Prisma.sql`
      SELECT "webhookId" AS "id", "topic" FROM "WebhookReceipt" WHERE "shopDomain" = ${SHOP}
      AND "webhookId" IN (${Prisma.join(["a", "b", "c"])}) ORDER BY "webhookId"`);
    expect(rows).toEqual([
      { id: "a", topic: "t" },
      { id: "b", topic: "t" },
    ]);
  });

  it("read a model's row as the model query does (modelRowOf): dates, booleans, nulls", async () => {
    const shopDomain = "driver-sql-row.myshopify.com";
    await prisma.shop.deleteMany({ where: { shopDomain } });
    await prisma.shop.create({
      data: {
        shopDomain,
        state: "active",
        syncProducts: true,
        syncPages: false,
        presencesReadAt: new Date("2026-11-27T10:11:12.345Z"),
        pausedAt: null,
        chosenMetafields: '["custom.material"]',
      },
    });
    try {
      const [row] = await driverQuery<Record<string, unknown>>(Prisma.sql`
        SELECT 1 AS "another", s.* FROM "Shop" s WHERE s."shopDomain" = ${shopDomain}`);
      const read = modelRowOf<Shop>("Shop", row!);
      expect(read).toEqual(await prisma.shop.findUniqueOrThrow({ where: { shopDomain } }));
      expect(read.presencesReadAt).toEqual(new Date("2026-11-27T10:11:12.345Z"));
      expect([read.syncProducts, read.syncPages, read.pausedAt]).toEqual([true, false, null]);
      expect(read).not.toHaveProperty("another");
    } finally {
      await prisma.shop.deleteMany({ where: { shopDomain } });
    }
  });

  it("work again after the client disconnected", async () => {
    const client = createPrismaClient(process.env.DATABASE_URL);
    try {
      await driverExecute(receipt("before", new Date()), client);
      await client.$disconnect();
      await driverExecute(receipt("after", new Date()), client);
      const rows = await driverQuery<{ webhookId: string }>(
        Prisma.sql`SELECT "webhookId" FROM "WebhookReceipt" WHERE "shopDomain" = ${SHOP} ORDER BY "webhookId"`,
        client,
      );
      expect(rows.map((row) => row.webhookId)).toEqual(["after", "before"]);
    } finally {
      await client.$disconnect();
    }
  });

  it.skipIf(onPostgres())(
    "report SQLite's lock held by another connection as busy, and succeed once it is gone",
    async () => {
      const holder = createPrismaClient(process.env.DATABASE_URL);
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      // An interactive transaction begins IMMEDIATE: it holds the write lock until it ends.
      const holding = holder.$transaction(
        async (tx) => {
          await tx.$executeRaw`UPDATE "Shop" SET "updatedAt" = "updatedAt"`;
          locked();
          await released;
        },
        { timeout: 30_000 },
      );
      try {
        await isLocked;
        const error = await driverExecute(receipt("while-locked", new Date())).catch(
          (caught: unknown) => caught,
        );
        expect(isDatabaseBusy(error)).toBe(true);
        const retried = retryWhileBusy(() => driverExecute(receipt("retried", new Date())), 20_000);
        release();
        await holding;
        expect(await retried).toBe(1);
      } finally {
        release();
        await holding.catch(() => undefined);
        await holder.$disconnect();
      }
    },
    30_000,
  );
});

afterAll(async () => {
  await prisma.webhookReceipt.deleteMany({ where: { shopDomain: SHOP } });
});
