/** The emulator's /__emulator/ inspection and control routes, over HTTP (no API key needed). */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { RateLimitedError, ServerError, UnauthorizedError } from "../../app/index-service/errors";
import { startEmulator, type RunningEmulator } from "../../dev/emulator/server";
import { KEYS, caught, clientFor, product } from "./helpers";

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ tokenDelayMs: 0 });
});
afterAll(async () => {
  await emulator.close();
});
beforeEach(() => {
  emulator.state.reset();
});

async function control(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${emulator.url}/__emulator${path}`, {
    method,
    headers: { "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status).toBe(200);
  return response.json();
}

const shop = () => clientFor(emulator, KEYS.personal, { workspaceId: "shop.example.com" });

describe("inspection and control over HTTP", () => {
  it("lists its endpoints", async () => {
    expect(await control("GET", "")).toMatchObject({ endpoints: expect.any(Array) });
  });

  it("shows workspaces, accounts and requests, and resets them", async () => {
    await shop().upsertProduct(product("p1", "Mug"));
    expect(await control("GET", "/workspaces")).toEqual([
      {
        account: "personal",
        workspaceId: "shop-example-com",
        products: [{ id: "p1", name: "Mug" }],
        posts: [],
      },
    ]);
    const accounts = (await control("GET", "/accounts")) as Array<Record<string, unknown>>;
    expect(accounts.find((account) => account.name === "personal")).toMatchObject({
      tier: "personal",
      usage: { used: { products: 1 } },
      rateWindows: { minute: { count: 1 }, hour: { count: 1 } },
    });
    expect(JSON.stringify(accounts)).not.toContain(KEYS.personal);
    expect(await control("GET", "/requests")).toEqual([
      expect.objectContaining({
        method: "POST",
        path: "/products",
        keyType: "secret",
        status: 200,
      }),
    ]);
    await control("POST", "/reset");
    expect(await control("GET", "/workspaces")).toEqual([]);
    expect(await control("GET", "/requests")).toEqual([]);
  });

  it("injects faults: the next N requests fail with the given status", async () => {
    await control("POST", "/faults", { status: 503, count: 2 });
    expect(await caught(() => shop().search("mug"))).toBeInstanceOf(ServerError);
    expect(await caught(() => shop().search("mug"))).toBeInstanceOf(ServerError);
    await expect(shop().search("mug")).resolves.toMatchObject({ status: 200 });

    await control("POST", "/faults", { status: 429, retryAfter: 7 });
    const limited = (await caught(() => shop().search("mug"))) as RateLimitedError;
    expect(limited).toBeInstanceOf(RateLimitedError);
    expect(limited.retryAfterMs).toBe(7_000);

    await control("POST", "/faults", { status: 500, count: 5 });
    expect(await control("GET", "/faults")).toEqual([expect.objectContaining({ remaining: 5 })]);
    await control("DELETE", "/faults");
    await expect(shop().search("mug")).resolves.toMatchObject({ status: 200 });
  });

  it("sets and advances the clock", async () => {
    await control("POST", "/clock", { now: "2025-06-30T23:59:30.000Z" });
    const june = await shop().upsertProduct(product("p1", "Mug"));
    expect(june.usage?.quota.resetDate).toBe("2025-07-01");
    await control("POST", "/clock", { advanceMs: 60_000 });
    const july = await shop().upsertProduct(product("p2", "Cup"));
    expect(july.usage?.quota).toMatchObject({ current: 1, resetDate: "2025-08-01" });
    expect(await control("GET", "/clock")).toEqual({
      now: Date.UTC(2025, 6, 1, 0, 0, 30),
      iso: "2025-07-01T00:00:30.000Z",
    });
  });

  it("revokes and restores a key", async () => {
    await control("POST", "/keys/revoke", { key: KEYS.personal });
    expect(await caught(() => shop().search("mug"))).toBeInstanceOf(UnauthorizedError);
    await control("POST", "/keys/restore", { key: KEYS.personal });
    await expect(shop().search("mug")).resolves.toMatchObject({ status: 200 });
  });

  it("changes an account's tier", async () => {
    await control("POST", "/accounts/personal", { tier: "professional" });
    expect((await shop().search("mug")).tier).toBe("professional");
  });
});
