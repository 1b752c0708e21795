/** Keeping service events for the configured period, and the configuration that sets it and mail. */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigurationError, readConfig } from "../../app/config.server";
import { signWebhookBody } from "../../app/index-service/webhook-signature";
import { prepareAppEnvironment } from "../../testkit/app-environment";
import prisma from "../../app/models/db.server";
import { receiveServiceEvent as receive } from "../../app/service-events/receive.server";
import { sealSecret } from "../../app/secret-box.server";
import { config } from "../../app/config.server";
import { pruneServiceEvents } from "../../app/service-events/retention.server";

const SHOP = "retention.myshopify.com";
const SECRET = "retention-test-secret";
const PUBLIC_ID = "retentionPublicId0001";
const DAY = 86_400_000;
const WORKSPACE = "retention-myshopify-com";

beforeAll(async () => {
  await prepareAppEnvironment({ BACKGROUND_WORK: "off" });
  await prisma.shop.create({
    data: { shopDomain: SHOP, primaryDomain: SHOP, workspaceId: WORKSPACE },
  });
  await prisma.serviceWebhook.create({
    data: {
      shopDomain: SHOP,
      publicId: PUBLIC_ID,
      secretCiphertext: sealSecret(SECRET, config().encryptionKey),
    },
  });
});

afterAll(async () => {
  await prisma?.$disconnect();
});

/** Every event but the contact form names the shop's workspace, as the service's do. */
async function deliver(id: string, type: string, data: object, at: Date) {
  const named = type === "contact.submitted" ? data : { workspace_id: WORKSPACE, ...data };
  const body = JSON.stringify({ id, event_type: type, created_at: at.toISOString(), data: named });
  return receive({
    publicId: PUBLIC_ID,
    rawBody: body,
    signature: signWebhookBody(SECRET, body),
    receivedAt: at,
  });
}

describe("retention", () => {
  it("prunes what is older than the retention period and keeps a kept entry's events whole", async () => {
    const now = new Date("2026-11-22T12:00:00Z");
    const ago = (days: number) => new Date(now.getTime() - days * DAY);
    // An old conversation, an old chat message, a recent message, and an entry active on both sides
    // of the cutoff.
    await deliver(
      "evt_old_hello",
      "chat.message_sent",
      { thread_id: "t_old", message: "hi" },
      ago(120),
    );
    await deliver(
      "evt_old_contact",
      "contact.submitted",
      { thread_id: "t_old", name: "Old", email: "o@x.io" },
      ago(120),
    );
    await deliver(
      "evt_old_msg",
      "chat.message_sent",
      { thread_id: "t_chat", message: "hi" },
      ago(100),
    );
    await deliver(
      "evt_new_msg",
      "chat.message_sent",
      { thread_id: "t_chat", message: "hi" },
      ago(1),
    );
    await deliver(
      "evt_long_1",
      "handoff.requested",
      { thread_id: "t_long", customer: { name: "Lo" } },
      ago(95),
    );
    await deliver("evt_long_2", "handoff.accepted", { thread_id: "t_long" }, ago(10));

    expect(await pruneServiceEvents(now, 90)).toEqual({
      events: 3,
      inboxEntries: 1,
      held: 0,
      redactions: 0,
    });
    const left = await prisma.serviceEvent.findMany({ orderBy: { eventId: "asc" } });
    expect(left.map((e) => e.eventId)).toEqual(["evt_long_1", "evt_long_2", "evt_new_msg"]);
    expect(await prisma.inboxItem.findMany({ select: { threadId: true } })).toEqual([
      { threadId: "t_long" },
    ]);
    // A later event of the kept entry still folds from all of its events.
    await deliver("evt_long_3", "handoff.resolved", { thread_id: "t_long" }, ago(0));
    expect(
      await prisma.inboxItem.findFirstOrThrow({ where: { threadId: "t_long" } }),
    ).toMatchObject({ name: "Lo", handoffState: "resolved", eventCount: 3 });
  });
});

describe("times the service claims", () => {
  async function deliverAt(id: string, createdAt: string, receivedAt: Date) {
    const body = JSON.stringify({
      id,
      event_type: "handoff.requested",
      created_at: createdAt,
      data: { workspace_id: WORKSPACE, thread_id: `t_${id}`, customer: { name: "Future" } },
    });
    return receive({
      publicId: PUBLIC_ID,
      rawBody: body,
      signature: signWebhookBody(SECRET, body),
      receivedAt,
    });
  }

  it("refuses an event dated beyond the allowed clock skew, so no replay window is open ahead", async () => {
    const now = new Date("2026-11-22T12:00:00Z");
    for (const [id, createdAt] of [
      ["evt_far_future", "2099-01-01T00:00:00Z"],
      ["evt_six_minutes", "2026-11-22T12:06:00Z"],
    ] as const) {
      expect(await deliverAt(id, createdAt, now)).toMatchObject({
        status: 400,
        reason: "future",
        message: "created_at is more than 5 minutes ahead of the app's clock",
      });
      expect(await prisma.serviceEvent.count({ where: { eventId: id } })).toBe(0);
      expect(await prisma.inboxItem.count({ where: { threadId: `t_${id}` } })).toBe(0);
    }
  });

  it("takes an event dated within the skew as received now, so the Inbox never shows a future time", async () => {
    const now = new Date("2026-11-22T12:00:00Z");
    expect(await deliverAt("evt_skewed", "2026-11-22T12:04:00Z", now)).toMatchObject({
      status: 200,
      reason: "stored",
    });
    const stored = await prisma.serviceEvent.findFirstOrThrow({ where: { eventId: "evt_skewed" } });
    expect(stored.occurredAt).toEqual(now);
    const entry = await prisma.inboxItem.findFirstOrThrow({ where: { threadId: "t_evt_skewed" } });
    expect(entry.lastAt).toEqual(now);
  });
});

const base = {
  NODE_ENV: "production",
  SHOPIFY_API_KEY: "key",
  SHOPIFY_API_SECRET: "secret",
  SHOPIFY_APP_URL: "https://app.example.com",
  INDEX_API_URL: "https://api.service.example",
  ENCRYPTION_KEY: randomBytes(32).toString("base64"),
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    readConfig({ ...base, ...env });
    return [];
  } catch (error) {
    if (error instanceof ConfigurationError) return error.problems;
    throw error;
  }
}

describe("service events and mail configuration", () => {
  it("keeps events 90 days unless told otherwise, and sends no mail without SMTP_URL", () => {
    const config = readConfig(base);
    expect(config.serviceEvents.retentionDays).toBe(90);
    expect(config.mail).toBeUndefined();
    expect(readConfig({ ...base, SERVICE_EVENTS_RETENTION_DAYS: "30" }).serviceEvents).toEqual({
      retentionDays: 30,
    });
  });

  it.each(["0", "-5", "1.5", "ninety", "99999"])(
    "refuses SERVICE_EVENTS_RETENTION_DAYS=%s",
    (value) => {
      expect(problemsOf({ SERVICE_EVENTS_RETENTION_DAYS: value })).toEqual([
        expect.stringContaining("SERVICE_EVENTS_RETENTION_DAYS must be a whole number of days"),
      ]);
    },
  );

  it("reads SMTP settings and never repeats the password in a problem", () => {
    expect(
      readConfig({
        ...base,
        SMTP_URL: "smtps://inbox:pa55@mail.example.com:465",
        MAIL_FROM: "Catalog Chat <inbox@example.com>",
      }).mail,
    ).toEqual({
      smtpUrl: "smtps://inbox:pa55@mail.example.com:465",
      from: "Catalog Chat <inbox@example.com>",
      notifyTo: undefined,
      handoffMailWaitMs: 20_000,
      retryBaseMs: 30_000,
      leaseMs: 120_000,
      pollMs: 2_000,
    });
    const problems = problemsOf({
      SMTP_URL: "http://inbox:s3cret-pw@mail",
      NOTIFY_EMAIL: "nope",
      HANDOFF_MAIL_WAIT_SECONDS: "soon",
      MAIL_RETRY_SECONDS: "0",
      MAIL_LEASE_SECONDS: "1",
      MAIL_POLL_SECONDS: "0",
    });
    expect(problems).toHaveLength(7);
    expect(problems).toContain(
      'HANDOFF_MAIL_WAIT_SECONDS must be a number of seconds from 0 to 3600, got "soon"',
    );
    expect(problems).toContain(
      'MAIL_RETRY_SECONDS must be a number of seconds from 0.1 to 3600, got "0"',
    );
    expect(problems).toContain(
      'MAIL_LEASE_SECONDS must be a number of seconds from 4 to 3600, got "1"',
    );
    expect(problems).toContain(
      'MAIL_POLL_SECONDS must be a number of seconds from 0.1 to 60, got "0"',
    );
    expect(problems.join("\n")).not.toContain("s3cret-pw");
  });
});
