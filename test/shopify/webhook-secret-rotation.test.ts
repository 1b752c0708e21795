/**
 * During a rotation of the app's client secret Shopify signs webhooks with the old secret until it
 * is revoked, and its retries keep the signature they were first sent with: with
 * SHOPIFY_API_SECRET the new secret and SHOPIFY_API_SECRET_PREVIOUS the old one, deliveries signed
 * with either are taken, any other signature is refused (docs/key-rotation.md).
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { beforeAll, describe, expect, it } from "vitest";
import { prepareAppEnvironment } from "../../testkit/app-environment";
import { callAction } from "../../testkit/route-call";
import { shopifyWebhookRequest } from "../../testkit/shopify-webhook";
import prisma from "../../app/models/db.server";
import { action as scopesUpdateAction } from "../../app/routes/webhooks.app.scopes_update";

type Action = (args: ActionFunctionArgs) => Promise<Response>;
const SHOP = "rotating-secret.myshopify.com";
const NEW_SECRET = "shpss_new_secret";
const OLD_SECRET = "shpss_old_secret";

const scopesUpdate = scopesUpdateAction as unknown as Action;

beforeAll(async () => {
  await prepareAppEnvironment({
    BACKGROUND_WORK: "off",
    SHOPIFY_API_SECRET: NEW_SECRET,
    SHOPIFY_API_SECRET_PREVIOUS: OLD_SECRET,
  });
  await prisma.shop.create({ data: { shopDomain: SHOP, scopes: "read_products" } });
});

async function deliverSignedWith(secret: string, scopes: string[]): Promise<number> {
  const request = shopifyWebhookRequest({
    topic: "app/scopes_update",
    shop: SHOP,
    body: JSON.stringify({ current: scopes }),
    secret,
  });
  return (await callAction(scopesUpdate, request)).status;
}

async function scopesNow(): Promise<string | null | undefined> {
  return (await prisma.shop.findUnique({ where: { shopDomain: SHOP } }))?.scopes;
}

describe("a client secret rotation", () => {
  it("takes deliveries signed with the new secret", async () => {
    expect(await deliverSignedWith(NEW_SECRET, ["read_products", "read_content"])).toBe(200);
    expect(await scopesNow()).toBe("read_products,read_content");
  });

  it("takes deliveries still signed with the previous secret", async () => {
    expect(await deliverSignedWith(OLD_SECRET, ["read_products", "read_inventory"])).toBe(200);
    expect(await scopesNow()).toBe("read_products,read_inventory");
  });

  it("refuses any other signature and changes nothing", async () => {
    expect(await deliverSignedWith("shpss_someone_else", ["write_products"])).toBe(401);
    expect(await scopesNow()).toBe("read_products,read_inventory");
  });
});
