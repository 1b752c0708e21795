/**
 * The live worker reads a shop's next changes in its pass's first statement (passStart) and uses
 * them where they are the ones it would read next on their own (nextChangesAndSendable): for
 * every outbox below, what `dueChangesOf` gives is that read, or nothing (then the worker reads
 * on its own), and nothing only when held changes were read that are not to be sent.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareAppEnvironment } from "../../testkit/app-environment";
import prisma from "../../app/models/db.server";
import { passStart } from "../../app/models/live-pass.server";
import {
  dueChangesOf,
  HELD_FOR_QUOTA_PREFIX,
  nextChangesAndSendable,
} from "../../app/models/outbox.server";

const SHOP = "changes-read.myshopify.com";
const T0 = Date.parse("2026-12-05T10:00:00.000Z");

const clear = () => prisma.pendingChange.deleteMany({ where: { shopDomain: SHOP } });

/** Changes received a second apart, oldest first; `held` ones wait for the quota, `failed` ones failed once. */
async function outbox(count: number, held: number[] = [], failed: number[] = []) {
  await clear();
  for (let i = 0; i < count; i++) {
    await prisma.pendingChange.create({
      data: {
        shopDomain: SHOP,
        productId: String(1000 + i),
        change: "update",
        changedAt: new Date(T0 + i * 1_000 - 500),
        receivedAt: new Date(T0 + i * 1_000),
        lastError: held.includes(i)
          ? `${HELD_FOR_QUOTA_PREFIX}The month's quota is used up.`
          : failed.includes(i)
            ? "The search service failed."
            : null,
        attempts: failed.includes(i) ? 1 : 0,
      },
    });
  }
}

beforeAll(async () => {
  await prepareAppEnvironment();
});
afterAll(clear);

const ids = (read: { rows: { productId: string }[]; sendable: number } | null) =>
  read && { rows: read.rows.map((row) => row.productId), sendable: read.sendable };

describe("the changes read with the pass", () => {
  const outboxes: [string, () => Promise<void>][] = [
    ["none", () => outbox(0)],
    ["five", () => outbox(5)],
    ["five, one failed", () => outbox(5, [], [1])],
    ["twelve, two held for the quota", () => outbox(12, [0, 7])],
    ["three, all held", () => outbox(3, [0, 1, 2])],
  ];
  for (const [name, fill] of outboxes) {
    it(`are the next changes, or left for a read of their own: ${name}`, async () => {
      await fill();
      let readWithPass = 0;
      for (const limit of [2, 4, 100]) {
        for (const except of [[], ["1001"]]) {
          for (const includeHeld of [false, true]) {
            for (const before of [T0 - 1, T0 + 2_500, T0 + 60_000]) {
              const options = { limit, except, includeHeld, receivedBefore: new Date(before) };
              const { changes } = await passStart(SHOP, "2026-12", { limit, except });
              const fromPass = dueChangesOf(changes!, options);
              const own = await nextChangesAndSendable(SHOP, options);
              const label = JSON.stringify({ name, limit, except, includeHeld, before });
              if (fromPass === null) {
                // Only when held changes were read and are not to be sent.
                expect(includeHeld, label).toBe(false);
                expect(
                  changes!.rows.some((row) => row.lastError?.startsWith(HELD_FOR_QUOTA_PREFIX)),
                  label,
                ).toBe(true);
              } else {
                readWithPass += 1;
                expect(ids(fromPass), label).toEqual(ids(own));
                expect(fromPass.rows, label).toEqual(own.rows);
              }
            }
          }
        }
      }
      // Without held changes, every read is the pass's own.
      if (!name.includes("held")) expect(readWithPass).toBe(36);
    });
  }
});

describe("the coalescing window", () => {
  const read = async (before: number, limit = 100) =>
    ids(
      await nextChangesAndSendable(SHOP, {
        limit,
        includeHeld: false,
        receivedBefore: new Date(before),
      }),
    );

  it("holds every change while the oldest has not waited", async () => {
    await outbox(5);
    expect(await read(T0 - 1)).toEqual({ rows: [], sendable: 5 });
  });

  it("once the oldest has waited, takes the changes that came in since too: one write a window under a steady stream", async () => {
    await outbox(5);
    // Only the first change (received at T0) has waited its window; the four after it go along.
    expect(await read(T0 + 500)).toEqual({
      rows: ["1000", "1001", "1002", "1003", "1004"],
      sendable: 5,
    });
    // At most a batch.
    expect((await read(T0 + 500, 2))?.rows).toEqual(["1000", "1001"]);
  });
});
