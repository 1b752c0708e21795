/**
 * Places taken together (decision 0063): a live pass's requests to the shop's workspace and its
 * storefront domains' take their places in the key's window in one statement, with the check
 * before a request, and use them while that check is fresh. A place is never used by another
 * sender's request, nor late; a request that cannot use one first lets the pass write what
 * waited for the requests to go together.
 */
import { describe, expect, it } from "vitest";
import { Prisma } from "@prisma/client";
import { ServerError } from "../../../app/index-service/errors";
import { RATE_LIMITS } from "../../../app/index-service/tiers";
import {
  Pacer,
  PREPAID_FRESH_MS,
  type RateGate,
  type SendGuard,
} from "../../../app/sync/engine/pacer";

/** A gate that records each statement (the places it took, whether it tested the check). */
function recordingGate(answer: { waitMs: number; conditionHeld: boolean }) {
  const takes: { places: number; tested: boolean }[] = [];
  const gate: RateGate = {
    take: async (condition, places = 1) => {
      takes.push({ places, tested: condition !== undefined });
      return answer.waitMs > 0
        ? { ...answer }
        : { waitMs: 0, conditionHeld: !!condition && answer.conditionHeld };
    },
    hold: async () => undefined,
  };
  return { gate, takes };
}

/** A guard with its check as SQL, counting the times it was read on its own. */
function countingGuard() {
  let reads = 0;
  const guard: SendGuard = Object.assign(
    async () => {
      reads += 1;
    },
    { condition: () => Prisma.sql`1 = 1` },
  );
  return { guard, reads: () => reads };
}

function pacerWith(gate: RateGate, clock: { now: number }) {
  return new Pacer({
    limits: RATE_LIMITS.personal,
    gate,
    now: () => clock.now,
    sleep: async (ms) => {
      clock.now += ms;
    },
    random: () => 0,
    baseBackoffMs: 1_000,
  });
}

describe("places taken together", () => {
  it("two requests: one statement takes both places with the check, and neither is checked again", async () => {
    const { gate, takes } = recordingGate({ waitMs: 0, conditionHeld: true });
    const { guard, reads } = countingGuard();
    const clock = { now: 1_000_000 };
    const pacer = pacerWith(gate, clock);
    const prepaid = await pacer.takePlaces(2, guard);
    expect(prepaid).toMatchObject({ left: 2, checked: true });
    await pacer.send(async () => "shop", guard, prepaid);
    clock.now += 40;
    await pacer.send(async () => "domain", guard, prepaid);
    expect(takes).toEqual([{ places: 2, tested: true }]);
    expect(reads()).toBe(0);
    expect(pacer.stats.requests).toBe(2);
  });

  it("a check the statement could not vouch for is read before each request", async () => {
    const { gate, takes } = recordingGate({ waitMs: 0, conditionHeld: false });
    const { guard, reads } = countingGuard();
    const pacer = pacerWith(gate, { now: 1_000_000 });
    const prepaid = await pacer.takePlaces(2, guard);
    await pacer.send(async () => "shop", guard, prepaid);
    await pacer.send(async () => "domain", guard, prepaid);
    expect(takes).toHaveLength(1);
    expect(reads()).toBe(2);
  });

  it("a request after the places went stale takes its own and is checked; the pass writes what waited first", async () => {
    const { gate, takes } = recordingGate({ waitMs: 0, conditionHeld: true });
    const { guard } = countingGuard();
    const clock = { now: 1_000_000 };
    const pacer = pacerWith(gate, clock);
    const prepaid = (await pacer.takePlaces(2, guard))!;
    const order: string[] = [];
    prepaid.apart = async () => {
      order.push("ledger written");
    };
    await pacer.send(async () => order.push("shop sent"), guard, prepaid);
    clock.now += PREPAID_FRESH_MS + 1;
    await pacer.send(async () => order.push("domain sent"), guard, prepaid);
    expect(order).toEqual(["shop sent", "ledger written", "domain sent"]);
    expect(takes).toEqual([
      { places: 2, tested: true },
      { places: 1, tested: true },
    ]);
    expect(prepaid.left).toBe(0);
  });

  it("a request retried after a 5xx writes what waited before it waits, and goes on its own place", async () => {
    const { gate, takes } = recordingGate({ waitMs: 0, conditionHeld: true });
    const { guard } = countingGuard();
    const pacer = pacerWith(gate, { now: 1_000_000 });
    const prepaid = (await pacer.takePlaces(2, guard))!;
    const order: string[] = [];
    prepaid.apart = async () => {
      order.push("ledger written");
    };
    await pacer.send(async () => order.push("shop sent"), guard, prepaid);
    let attempts = 0;
    await pacer.send(
      async () => {
        attempts += 1;
        if (attempts === 1) {
          throw new ServerError({ status: 503, message: "down" });
        }
        order.push("domain sent");
      },
      guard,
      prepaid,
    );
    expect(order).toEqual(["shop sent", "ledger written", "domain sent"]);
    expect(takes.map((take) => take.places)).toEqual([2, 1]);
  });

  it("another sender's request (another guard) never uses them", async () => {
    const { gate, takes } = recordingGate({ waitMs: 0, conditionHeld: true });
    const pass = countingGuard();
    const other = countingGuard();
    const pacer = pacerWith(gate, { now: 1_000_000 });
    const prepaid = await pacer.takePlaces(2, pass.guard);
    await pacer.send(async () => "other", other.guard, prepaid);
    expect(takes.map((take) => take.places)).toEqual([2, 1]);
  });

  it("are not taken for one request, without a shared window, or when the window has no room for all now", async () => {
    const room = recordingGate({ waitMs: 0, conditionHeld: true });
    const { guard } = countingGuard();
    expect(await pacerWith(room.gate, { now: 0 }).takePlaces(1, guard)).toBeUndefined();
    expect(room.takes).toEqual([]);
    expect(await new Pacer({ limits: RATE_LIMITS.personal }).takePlaces(2, guard)).toBeUndefined();
    const full = recordingGate({ waitMs: 5_000, conditionHeld: false });
    const clock = { now: 0 };
    expect(await pacerWith(full.gate, clock).takePlaces(2, guard)).toBeUndefined();
    // Nothing waited: each request then takes its own place as usual.
    expect(clock.now).toBe(0);
  });
});
