/**
 * The live worker reads its shop's offline session in its pass's first statement (passStart) and
 * hands that row to the Shopify library's next load of it (withSessionRead), instead of a
 * statement of its own: the library must get the same session as from its own read, once, and
 * never a row older than a session written since.
 */
import { Session } from "@shopify/shopify-api";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { prepareAppEnvironment } from "../../testkit/app-environment";
import prisma from "../../app/models/db.server";
import { passStart } from "../../app/models/live-pass.server";
import {
  offlineSessionIdOf,
  prismaSessionStorage,
  withSessionRead,
} from "../../app/models/sessions.server";

const SHOP = "session-read.myshopify.com";
const ID = offlineSessionIdOf(SHOP);

const storage = () => prismaSessionStorage();

const session = (accessToken: string) =>
  new Session({
    id: ID,
    shop: SHOP,
    state: "installed",
    isOnline: false,
    scope: "read_products,read_inventory",
    expires: new Date("2027-01-01T00:00:00.000Z"),
    accessToken,
    refreshToken: "refresh-1",
    refreshTokenExpires: new Date("2027-03-01T00:00:00.000Z"),
  });

const clear = () => prisma.session.deleteMany({ where: { shop: SHOP } });

beforeAll(async () => {
  await prepareAppEnvironment();
});
beforeEach(clear);
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

  it("is none for a shop without an offline session", async () => {
    expect((await passStart(SHOP, "2026-12")).offlineSession).toBeNull();
  });
});
