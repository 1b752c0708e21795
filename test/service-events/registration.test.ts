/**
 * The app's webhook registration with the service over real HTTP (the emulator): repaired at
 * start-up when it differs, stale registrations of the app removed, others left alone, deleted on
 * uninstall and shop/redact.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IndexServiceClient } from "../../app/index-service/client";
import { signWebhookBody } from "../../app/index-service/webhook-signature";
import {
  KEYS,
  SHOP_A,
  SHOP_B,
  connectShop,
  startEventsEnvironment,
  type EventsEnvironment,
} from "../../testkit/service-events-stack";
import * as registration from "../../app/service-events/registration.server";
import { openSecret } from "../../app/secret-box.server";
import { config } from "../../app/config.server";
import { sendTestEvent } from "../../app/service-events/test-event.server";

let env: EventsEnvironment;

beforeAll(async () => {
  env = await startEventsEnvironment();
  await connectShop(SHOP_A);
  await connectShop(SHOP_B);
}, 60_000);

afterAll(async () => {
  await env?.close();
});

const serviceClient = (shop: keyof typeof KEYS) =>
  new IndexServiceClient({ baseUrl: env.emulator.url, apiKey: KEYS[shop].secret });
const hooksOf = (shop: keyof typeof KEYS) =>
  env.emulator.state.webhooks().filter((hook) => hook.account === KEYS[shop].account);

describe("registering the service's webhook", () => {
  it("at start-up, repairs a registration that differs and removes the app's stale ones, leaving others alone", async () => {
    const row = await env.prisma.serviceWebhook.findUniqueOrThrow({
      where: { shopDomain: SHOP_A },
    });
    const client = serviceClient(SHOP_A);
    // What an older deployment at another URL left behind, and someone else's webhook.
    const stale = await client.createWebhook({
      name: registration.SERVICE_WEBHOOK_NAME,
      url: `https://old-app.example.com/service-events/${row.publicId}`,
      events: ["handoff.requested"],
      secret: "old-secret",
    });
    const other = await client.createWebhook({
      name: "Helpdesk integration",
      url: "https://helpdesk.example.com/hooks",
      events: ["handoff.requested"],
      secret: "theirs",
    });
    // The app's record says it registered another URL (as after SHOPIFY_APP_URL changed).
    await env.prisma.serviceWebhook.update({
      where: { shopDomain: SHOP_A },
      data: { url: "https://old-app.example.com/service-events/x", events: "handoff.requested" },
    });
    expect(await registration.registrationIsStale(SHOP_A)).toBe(true);
    expect(await registration.registrationIsStale(SHOP_B)).toBe(false);

    const results = await registration.ensureAllServiceWebhooks();
    expect(results).toEqual([expect.objectContaining({ state: "registered" })]);
    const ids = hooksOf(SHOP_A)
      .map((hook) => hook.id)
      .sort();
    expect(ids).toEqual([row.webhookId!, other.data.id].sort());
    expect(ids).not.toContain(stale.data.id);
    const current = hooksOf(SHOP_A).find((hook) => hook.id === row.webhookId)!;
    expect(current.url).toBe(`${env.appUrl}/service-events/${row.publicId}`);
    expect(await registration.registrationIsStale(SHOP_A)).toBe(false);
    // Nothing differs now: a second start-up changes nothing.
    env.emulator.state.clearRequests();
    expect(await registration.ensureAllServiceWebhooks()).toEqual([]);
    expect(env.emulator.state.requests()).toEqual([]);
  });

  it("registers again when the webhook was deleted at the service, keeping the shop's URL and secret", async () => {
    const before = await env.prisma.serviceWebhook.findUniqueOrThrow({
      where: { shopDomain: SHOP_B },
    });
    await serviceClient(SHOP_B).deleteWebhook(before.webhookId!);
    const result = await registration.ensureServiceWebhook(SHOP_B);
    expect(result).toMatchObject({ state: "registered" });
    const after = await env.prisma.serviceWebhook.findUniqueOrThrow({
      where: { shopDomain: SHOP_B },
    });
    expect(after.webhookId).not.toBe(before.webhookId);
    expect(after.publicId).toBe(before.publicId);
    expect(after.secretCiphertext).toBe(before.secretCiphertext);
    expect(hooksOf(SHOP_B)).toHaveLength(1);
  });

  it("says why when the service refuses, and shows nothing of the secret", async () => {
    env.emulator.state.injectFault({ status: 500, count: 1, match: { path: "/webhooks" } });
    const result = await registration.ensureServiceWebhook(SHOP_B);
    expect(result.state).toBe("failed");
    const status = await registration.serviceEventsStatus(SHOP_B);
    expect(status.lastError).toMatch(/refused the event webhook/);
    env.emulator.state.clearFaults();
    expect(await registration.ensureServiceWebhook(SHOP_B)).toMatchObject({ state: "registered" });
    expect(await registration.serviceEventsStatus(SHOP_B)).toEqual({
      registered: true,
      lastError: null,
    });
  });

  it("uninstall deletes the webhook at the service and the app refuses deliveries to its old URL", async () => {
    const row = await env.prisma.serviceWebhook.findUniqueOrThrow({
      where: { shopDomain: SHOP_B },
    });
    const secret = openSecret(row.secretCiphertext, config().encryptionKey);
    await registration.removeServiceWebhook(SHOP_B);
    expect(hooksOf(SHOP_B)).toEqual([]);
    const body = JSON.stringify({
      id: "evt_after_uninstall",
      event_type: "contact.submitted",
      created_at: new Date().toISOString(),
      data: { thread_id: "t", name: "Late", email: "late@example.com" },
    });
    const response = await fetch(row.url!, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-Webhook-Signature": signWebhookBody(secret, body),
      },
      body,
    });
    expect(response.status).toBe(401);
    expect(await env.prisma.serviceEvent.count({ where: { shopDomain: SHOP_B } })).toBe(0);
  });
});

describe("Send a test event", () => {
  it("reports success when the delivery arrived verified, and re-registers a webhook deleted at the service", async () => {
    expect(await sendTestEvent(SHOP_A)).toMatchObject({
      ok: true,
      message: expect.stringMatching(/arrived and its signature was verified/),
    });
    const row = await env.prisma.serviceWebhook.findUniqueOrThrow({
      where: { shopDomain: SHOP_A },
    });
    await serviceClient(SHOP_A).deleteWebhook(row.webhookId!);
    expect(await sendTestEvent(SHOP_A)).toMatchObject({ ok: true });
    // Test events are kept apart: nothing in the Inbox.
    expect(await env.prisma.inboxItem.count({ where: { shopDomain: SHOP_A } })).toBe(0);
  });

  it("reports a signature mismatch when the service signs with another secret", async () => {
    const row = await env.prisma.serviceWebhook.findUniqueOrThrow({
      where: { shopDomain: SHOP_A },
    });
    await serviceClient(SHOP_A).updateWebhook(row.webhookId!, { secret: "not-the-apps-secret" });
    const result = await sendTestEvent(SHOP_A, { arrivalWaitMs: 0 });
    expect(result).toEqual({
      ok: false,
      message: expect.stringMatching(/arrived but its signature did not match/),
    });
  });
});
