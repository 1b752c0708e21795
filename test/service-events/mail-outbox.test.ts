/**
 * Notification emails go through the outbox (issue 23, item 4): owed before the service's delivery
 * is answered, sent by the mail sender over real SMTP to the local mail sink, retried while the
 * mail server is down (and the Dashboard says so), and taken by one sender at a time.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeShopify } from "../../dev/fake-shopify/server";
import { startMailSink, type RunningMailSink } from "../../dev/mail-sink/server";
import { freePort } from "../../testkit/free-port";
import { waitFor } from "../../testkit/live-stack";
import {
  askForAPerson,
  deliverEvent,
  connectShop,
  SHOP_A,
  startEventsEnvironment,
  type EventsEnvironment,
} from "../../testkit/service-events-stack";
import { shopifyAdminClient } from "../../testkit/shopify-admin-client";
import * as outbox from "../../app/models/notification-mails.server";
import * as senders from "../../app/service-events/mail-sender.server";
import { dashboardOf } from "../../app/admin/dashboard.server";

let env: EventsEnvironment;
let mail: RunningMailSink;
let smtpPort: number;
let shopify: Awaited<ReturnType<typeof startFakeShopify>>;

beforeAll(async () => {
  smtpPort = await freePort();
  mail = await startMailSink({ smtpPort });
  shopify = await startFakeShopify({ shopDomain: SHOP_A });
  env = await startEventsEnvironment({
    SMTP_URL: mail.smtpUrl,
    MAIL_FROM: "Catalog Chat <inbox@catalog-chat.test>",
    NOTIFY_EMAIL: "owner@shop-a.test",
    HANDOFF_MAIL_WAIT_SECONDS: "1",
    MAIL_RETRY_SECONDS: "0.2",
  });
  await connectShop(SHOP_A);
}, 60_000);

afterAll(async () => {
  await env?.close();
  await mail?.close();
  await shopify?.close();
});

/** What the Dashboard's loader says about notification emails. */
async function dashboardMailLine(): Promise<string | null> {
  const admin = await shopifyAdminClient(shopify.graphqlUrl);
  return (await dashboardOf(SHOP_A, admin)).mailTrouble;
}

const owed = () => env.prisma.notificationMail.count({ where: { state: "owed" } });

describe("the mail outbox", () => {
  it("keeps a notification while the mail server is down, says so on the Dashboard, and sends it once when it is back", async () => {
    let later = 0;
    const sender = senders.startMailSender(() => new Date(Date.now() + later));
    try {
      await mail.close();
      const mailsOf = () => mail.messages().filter((m) => m.subject.endsWith("from Outage Olga"));
      await askForAPerson(env.emulator.url, SHOP_A, "web_outage", {
        name: "Outage Olga",
        email: "olga@example.com",
        phone: "",
        message: "Is the blue one back?",
      });
      await env.emulator.state.deliveriesSettled();
      // The service's deliveries were answered 200: the email is owed, whatever happens to it.
      expect(await owed()).toBeGreaterThanOrEqual(1);
      // A minute on, the request to talk to a person has waited for its form (which came), and
      // the sender, nudged instead of polling, tries the contact email again.
      later = 60_000;
      senders.nudgeMailSender();
      await waitFor(
        "the Dashboard to say mail is failing",
        async () =>
          /^Notification emails are failing since \d{1,2} \w{3} \d{4}, \d\d:\d\d UTC: .*ECONNREFUSED.*\. 1 waiting; /.test(
            (await dashboardMailLine()) ?? "",
          ),
        20_000,
      );
      const failed = await env.prisma.notificationMail.findFirstOrThrow({
        where: { state: "owed", kind: "contact" },
      });
      expect(failed.attempts).toBeGreaterThanOrEqual(1);
      expect(failed.lastError).not.toContain(mail.smtpUrl);

      mail = await startMailSink({ smtpPort });
      // Another minute on, the failed sends' backoff is over.
      later = 120_000;
      senders.nudgeMailSender();
      await waitFor("the email once the mail server is back", () => mailsOf().length >= 1, 20_000);
      await waitFor("the outbox to empty", async () => (await owed()) === 0);
      expect(mailsOf()).toHaveLength(1);
      expect(mailsOf()[0]!.text).toContain('Message: "Is the blue one back?"');
      expect(await dashboardMailLine()).toBeNull();
    } finally {
      await sender?.stop();
    }
  });

  it("mails a request to talk to a person after the wait when no contact form comes", async () => {
    let later = 0;
    const sender = senders.startMailSender(() => new Date(Date.now() + later));
    try {
      const status = await deliverEvent(env.prisma, SHOP_A, "handoff.requested", {
        thread_id: "web_handoff_alone",
        customer: { name: "Hana Alone" },
      });
      expect(status).toBe(200);
      // A minute on, the wait for a contact form (HANDOFF_MAIL_WAIT_SECONDS) is over without one.
      later = 60_000;
      senders.nudgeMailSender();
      await waitFor(
        "the handoff request's email",
        () =>
          mail
            .messages()
            .some((m) => m.subject === "New request to talk to a person from Hana Alone"),
        20_000,
      );
      await waitFor("the outbox to empty", async () => (await owed()) === 0);
      expect(
        mail.messages().filter((m) => m.subject.startsWith("New request to talk to a person")),
      ).toHaveLength(1);
    } finally {
      await sender?.stop();
    }
  });

  it("gives each owed email to one sender at a time, however many claim at once", async () => {
    const shopDomain = "claims.myshopify.com";
    const now = new Date();
    for (let i = 0; i < 40; i++) {
      await outbox.oweNotificationMail({
        shopDomain,
        threadId: `t${i}`,
        kind: "contact",
        key: `evt_${i}`,
        notBefore: now,
      });
    }
    // Owing the same email again (a repeated delivery) adds nothing.
    await outbox.oweNotificationMail({
      shopDomain,
      threadId: "t0",
      kind: "contact",
      key: "evt_0",
      notBefore: now,
    });
    const taken: number[] = [];
    const claimer = async () => {
      for (;;) {
        const claims = await outbox.claimDueMails(new Date(), 60_000, 1);
        if (claims.length === 0) {
          const left = await env.prisma.notificationMail.count({
            where: { shopDomain, state: "owed", claimToken: null },
          });
          if (left === 0) return;
          continue;
        }
        for (const claim of claims) {
          taken.push(claim.mail.id);
          expect(await outbox.settleMail(claim, "sent", new Date())).toBe(true);
        }
      }
    };
    await Promise.all([claimer(), claimer(), claimer(), claimer()]);
    expect(taken).toHaveLength(40);
    expect(new Set(taken).size).toBe(40);
  });

  it("takes an email again when its sender died after claiming it, with the same Message-ID", async () => {
    const shopDomain = "crash.myshopify.com";
    const t0 = new Date(Date.now() + 3_600_000);
    await outbox.oweNotificationMail({
      shopDomain,
      threadId: "t",
      kind: "contact",
      key: "evt_crash",
      notBefore: t0,
    });
    const [first] = await outbox.claimDueMails(t0, 60_000, 1);
    expect(first?.mail.shopDomain).toBe(shopDomain);
    // Its sender is killed here, maybe after the mail server took the email.
    expect(await outbox.claimDueMails(new Date(t0.getTime() + 59_000), 60_000, 1)).toEqual([]);
    const [second] = await outbox.claimDueMails(new Date(t0.getTime() + 60_000), 60_000, 1);
    expect(second?.mail.id).toBe(first!.mail.id);
    expect(senders.messageIdOf(second!, env.appUrl)).toBe(senders.messageIdOf(first!, env.appUrl));
    // The first sender's late mark is refused; the second's counts.
    expect(await outbox.settleMail(first!, "sent", new Date())).toBe(false);
    expect(await outbox.settleMail(second!, "sent", new Date())).toBe(true);
  });
});
