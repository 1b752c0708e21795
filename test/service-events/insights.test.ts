/** Insights counted from stored service events (real database, events taken by the receiving code). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signWebhookBody } from "../../app/index-service/webhook-signature";
import { prepareAppEnvironment } from "../../testkit/app-environment";
import prisma from "../../app/models/db.server";
import * as insights from "../../app/service-events/insights.server";
import { receiveServiceEvent as receive } from "../../app/service-events/receive.server";
import { sealSecret } from "../../app/secret-box.server";
import { config } from "../../app/config.server";

const SHOPS = {
  "insights-a.myshopify.com": { publicId: "insightsPublicIdAAAA01", secret: "secret-a" },
  "insights-b.myshopify.com": { publicId: "insightsPublicIdBBBB01", secret: "secret-b" },
} as const;
type ShopName = keyof typeof SHOPS;
const A: ShopName = "insights-a.myshopify.com";
const B: ShopName = "insights-b.myshopify.com";
const NOW = new Date("2026-11-22T15:00:00Z");
const DAY = 86_400_000;
/** The events name the shop's workspace, as the service's chat, handoff and feedback events do. */
const workspaceOf = (shop: string) => shop.replaceAll(".", "-");

let sequence = 0;

beforeAll(async () => {
  await prepareAppEnvironment({ BACKGROUND_WORK: "off" });
  for (const [shopDomain, { publicId, secret }] of Object.entries(SHOPS)) {
    await prisma.shop.create({
      data: { shopDomain, primaryDomain: shopDomain, workspaceId: workspaceOf(shopDomain) },
    });
    await prisma.serviceWebhook.create({
      data: { shopDomain, publicId, secretCiphertext: sealSecret(secret, config().encryptionKey) },
    });
  }
});

afterAll(async () => {
  await prisma?.$disconnect();
});

async function event(shop: ShopName, type: string, data: object, daysAgo: number) {
  sequence += 1;
  const at = new Date(NOW.getTime() - daysAgo * DAY);
  const body = JSON.stringify({
    id: `evt_ins_${sequence}`,
    event_type: type,
    created_at: at.toISOString(),
    data: { workspace_id: workspaceOf(shop), ...data },
  });
  const outcome = await receive({
    publicId: SHOPS[shop].publicId,
    rawBody: body,
    signature: signWebhookBody(SHOPS[shop].secret, body),
    receivedAt: NOW,
  });
  expect(outcome.status).toBe(200);
}

async function conversation(shop: ShopName, thread: string, daysAgo: number, messages: string[]) {
  await event(shop, "chat.conversation_started", { thread_id: thread }, daysAgo);
  for (const message of messages) {
    await event(shop, "chat.message_sent", { thread_id: thread, message }, daysAgo);
  }
}

describe("Insights", () => {
  it("counts conversations, messages, handoffs and feedback per day, and the most asked questions", async () => {
    await conversation(A, "t1", 0, ["Do you ship to Porto?", "Send"]);
    await event(A, "handoff.requested", { thread_id: "t1", customer: { name: "Ana" } }, 0);
    await conversation(A, "t2", 0, ["do you ship to  porto", "Is the mug dishwasher safe?"]);
    await event(A, "feedback.submitted", { thread_id: "t2", rating: "positive" }, 0);
    await conversation(A, "t3", 2, ["DO YOU SHIP TO PORTO!"]);
    await event(A, "feedback.submitted", { thread_id: "t3", rating: "negative" }, 2);
    // Outside 7 days, a test event, and another shop: none of them counts.
    await conversation(A, "t_old", 10, ["Old question?"]);
    await event(
      A,
      "chat.conversation_started",
      { thread_id: "catalog-chat-test-x", catalog_chat_test: "x" },
      0,
    );
    await conversation(B, "tb", 0, ["Shop B's question?"]);

    const week = await insights.dailyInsights(A, 7, NOW);
    expect(week.days).toHaveLength(7);
    expect(week.days.at(-1)).toBe("2026-11-22");
    expect(week.conversations).toEqual([0, 0, 0, 0, 1, 0, 2]);
    expect(week.messages).toEqual([0, 0, 0, 0, 1, 0, 4]);
    expect(week.handoffs).toEqual([0, 0, 0, 0, 0, 0, 1]);
    expect(week.handoffRate).toEqual([null, null, null, null, 0, null, 0.5]);
    expect(week.positive).toEqual([0, 0, 0, 0, 0, 0, 1]);
    expect(week.negative).toEqual([0, 0, 0, 0, 1, 0, 0]);
    expect(week.totals).toEqual({
      conversations: 3,
      messages: 5,
      handoffs: 1,
      handoffRate: 1 / 3,
      positive: 1,
      negative: 1,
    });
    expect(week.topQuestions).toEqual([
      { question: "do you ship to porto", count: 3 },
      { question: "is the mug dishwasher safe", count: 1 },
    ]);

    const month = await insights.dailyInsights(A, 30, NOW);
    expect(month.days).toHaveLength(30);
    expect(month.totals.conversations).toBe(4);
    expect(month.topQuestions.map((q) => q.question)).toContain("old question");
    expect((await insights.dailyInsights(B, 7, NOW)).totals.conversations).toBe(1);
  });
});
