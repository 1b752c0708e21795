/**
 * After a mail outage the merchant's emails go as soon as the mail server is back, not at the end
 * of a backoff that grew through the outage (it doubles up to an hour): the first email that goes
 * through brings forward every one that waited only because the server could not be reached. An
 * email the server refused (a 550) keeps its backoff: the server being up does not change its fate.
 * MAIL_RETRY_SECONDS is 600 here, so an email left to its backoff would not come within the test.
 * The operator's /metrics counts each attempt: sent, or failed (refused or server unreachable).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMailSink, type RunningMailSink } from "../../dev/mail-sink/server";
import { freePort } from "../../testkit/free-port";
import { waitFor } from "../../testkit/live-stack";
import {
  askForAPerson,
  connectShop,
  SHOP_A,
  startEventsEnvironment,
  type EventsEnvironment,
} from "../../testkit/service-events-stack";
import * as senders from "../../app/service-events/mail-sender.server";
import { scrapeMetrics } from "../../app/server/metrics";
import { parsePrometheusText, sumOf } from "../../testkit/prometheus-text";

let env: EventsEnvironment;
let mail: RunningMailSink;
let smtpPort: number;
const refuseRita = (m: { subject: string }) => m.subject.endsWith("from Refused Rita");

beforeAll(async () => {
  smtpPort = await freePort();
  mail = await startMailSink({ smtpPort, refuse: refuseRita });
  env = await startEventsEnvironment({
    SMTP_URL: mail.smtpUrl,
    MAIL_FROM: "Catalog Chat <inbox@catalog-chat.test>",
    NOTIFY_EMAIL: "owner@shop-a.test",
    HANDOFF_MAIL_WAIT_SECONDS: "1",
    MAIL_RETRY_SECONDS: "600",
  });
  await connectShop(SHOP_A);
}, 60_000);

afterAll(async () => {
  await env?.close();
  await mail?.close();
});

/** The process's notification_mails_total for the outcome, as /metrics shows it. */
async function mailsCounted(outcome: "sent" | "failed"): Promise<number> {
  const samples = parsePrometheusText((await scrapeMetrics()).text);
  return sumOf(samples, "catalog_chat_notification_mails_total", { outcome });
}

const contactFrom = (name: string) => (m: { subject: string }) =>
  m.subject === `New contact request from ${name}`;

async function shopperWrites(threadId: string, name: string): Promise<void> {
  await askForAPerson(env.emulator.url, SHOP_A, threadId, {
    name,
    email: `${threadId}@example.com`,
    phone: "",
    message: "Do you ship to Norway?",
  });
  await env.emulator.state.deliveriesSettled();
}

describe("notification emails after a mail outage", () => {
  it("go as soon as one email gets through, while a refused one keeps its backoff", async () => {
    const sentBefore = await mailsCounted("sent");
    const failedBefore = await mailsCounted("failed");
    const sender = senders.startMailSender();
    try {
      await shopperWrites("web_rita", "Refused Rita");
      await waitFor("the server to refuse Rita's email", () =>
        mail.refused().some(contactFrom("Refused Rita")),
      );

      await mail.close();
      await shopperWrites("web_olga", "Outage Olga");
      await waitFor("Olga's email to fail", async () => {
        const row = await env.prisma.notificationMail.findFirst({
          where: { threadId: "web_olga", kind: "contact" },
        });
        return (row?.attempts ?? 0) >= 1 && row?.claimToken === null;
      });

      mail = await startMailSink({ smtpPort, refuse: refuseRita });
      await shopperWrites("web_ben", "Back Ben");
      await waitFor("Ben's email", () => mail.messages().some(contactFrom("Back Ben")), 20_000);
      await waitFor(
        "Olga's email, well before its 600 s backoff",
        () => mail.messages().some(contactFrom("Outage Olga")),
        20_000,
      );
      expect(mail.messages().filter(contactFrom("Outage Olga"))).toHaveLength(1);
      // Rita's email was refused once and waits out its backoff: no second attempt.
      expect(mail.refused().filter(contactFrom("Refused Rita"))).toHaveLength(0);
      const rita = await env.prisma.notificationMail.findFirstOrThrow({
        where: { threadId: "web_rita", kind: "contact" },
      });
      expect(rita.state).toBe("owed");
      expect(rita.attempts).toBe(1);
      expect(rita.notBefore.getTime()).toBeGreaterThan(Date.now() + 500_000);
      // Ben's and Olga's went; Rita's was refused and Olga's first try found no server.
      // Counted once the sender has recorded the send, a moment after the sink took it.
      await waitFor(
        "the sends counted",
        async () => (await mailsCounted("sent")) - sentBefore >= 2,
      );
      expect((await mailsCounted("sent")) - sentBefore).toBe(2);
      expect((await mailsCounted("failed")) - failedBefore).toBe(2);
    } finally {
      await sender?.stop();
    }
  }, 90_000);
});
