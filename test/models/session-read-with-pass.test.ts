/**
 * The live worker reads its shop's offline session in its pass's first statement (passStart) and
 * hands that row to the Shopify library's next load of it (withSessionRead), instead of a
 * statement of its own: the library must get the same session as from its own read, once, and
 * never a row older than a session written since, a row read more than a second before, or one
 * the library is about to refresh (a refresh starts from the latest row: Shopify replaces the
 * refresh token each time it is used).
 */
import { Session } from "@shopify/shopify-api";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { prepareAppEnvironment } from "../../testkit/app-environment";
import prisma from "../../app/models/db.server";
import { passStart } from "../../app/models/live-pass.server";
import { prismaSessionStorage } from "../../app/models/sessions.server";
import { offlineSessionIdOf, withSessionRead } from "../../app/models/session-reads.server";
import { updateShopScopes } from "../../app/models/shops.server";

const SHOP = "session-read.myshopify.com";
const ID = offlineSessionIdOf(SHOP);

const storage = () => prismaSessionStorage();

const session = (accessToken: string, expires = new Date("2027-01-01T00:00:00.000Z")) =>
  new Session({
    id: ID,
    shop: SHOP,
    state: "installed",
    isOnline: false,
    scope: "read_products,read_inventory",
    expires,
    accessToken,
    refreshToken: "refresh-1",
    refreshTokenExpires: new Date("2027-03-01T00:00:00.000Z"),
  });

const clear = () => prisma.session.deleteMany({ where: { shop: SHOP } });

beforeAll(async () => {
  await prepareAppEnvironment();
});
beforeEach(clear);
afterEach(() => {
  vi.restoreAllMocks();
});
afterAll(clear);

describe("the offline session read with the pass", () => {
  it("is the session the library loads itself, with every field", async () => {
    const sessions = storage();
    await sessions.storeSession(session("token-1"));
    const { offlineSession } = await passStart(SHOP, "2026-12");
    expect(offlineSession).not.toBeNull();
    const handed = await withSessionRead(offlineSession!, () => sessions.loadSession(ID));
    const own = await sessions.loadSession(ID);
    expect(handed?.toPropertyArray(true)).toEqual(own?.toPropertyArray(true));
    expect(handed?.accessToken).toBe("token-1");
  });

  it("is used once, and not after a session was written since it was read", async () => {
    const sessions = storage();
    await sessions.storeSession(session("token-1"));
    const { offlineSession } = await passStart(SHOP, "2026-12");
    // Changed in the database behind the row's back: a load that reads gets token-2.
    await prisma.session.update({ where: { id: ID }, data: { accessToken: "token-2" } });
    const tokens = await withSessionRead(offlineSession!, async () => [
      (await sessions.loadSession(ID))?.accessToken,
      (await sessions.loadSession(ID))?.accessToken,
    ]);
    expect(tokens).toEqual(["token-1", "token-2"]);

    // The library refreshes the token (it stores the session) before it loads it again.
    const refreshed = await withSessionRead(offlineSession!, async () => {
      await sessions.storeSession(session("token-3"));
      return (await sessions.loadSession(ID))?.accessToken;
    });
    expect(refreshed).toBe("token-3");
    // And after the pass, loads read the database.
    expect((await sessions.loadSession(ID))?.accessToken).toBe("token-3");
  });

  it("is not handed over once a session was written since it was read, through the storage or not", async () => {
    const sessions = storage();
    await sessions.storeSession(session("token-1"));
    let { offlineSession } = await passStart(SHOP, "2026-12");
    // Another step of this process stores a new token (OAuth, a refresh) before the hand-over.
    await sessions.storeSession(session("token-2"));
    expect(
      await withSessionRead(
        offlineSession,
        async () => (await sessions.loadSession(ID))?.accessToken,
      ),
    ).toBe("token-2");
    // The app's own statements: new scopes.
    ({ offlineSession } = await passStart(SHOP, "2026-12"));
    await updateShopScopes(SHOP, ["read_products"]);
    expect(
      await withSessionRead(offlineSession, async () => (await sessions.loadSession(ID))?.scope),
    ).toBe("read_products");
  });

  it("is not handed over more than a second after it was read", async () => {
    const sessions = storage();
    await sessions.storeSession(session("token-1"));
    const { offlineSession } = await passStart(SHOP, "2026-12");
    await prisma.session.update({ where: { id: ID }, data: { accessToken: "token-2" } });
    const readAt = offlineSession!.readAt;
    vi.spyOn(performance, "now").mockReturnValue(readAt + 1_001);
    expect(
      await withSessionRead(
        offlineSession,
        async () => (await sessions.loadSession(ID))?.accessToken,
      ),
    ).toBe("token-2");
  });

  it("is not handed over when the library would refresh it: it refreshes from the latest row", async () => {
    const sessions = storage();
    await sessions.storeSession(session("token-1", new Date(Date.now() + 5 * 60_000)));
    const { offlineSession } = await passStart(SHOP, "2026-12");
    // Another process refreshed it meanwhile (new token, new refresh token).
    await prisma.session.update({
      where: { id: ID },
      data: { accessToken: "token-2", refreshToken: "refresh-2" },
    });
    const loaded = await withSessionRead(offlineSession, () => sessions.loadSession(ID));
    expect([loaded?.accessToken, loaded?.refreshToken]).toEqual(["token-2", "refresh-2"]);
  });

  it("is none for a shop without an offline session", async () => {
    expect((await passStart(SHOP, "2026-12")).offlineSession).toBeNull();
  });
});
