/**
 * Owing the merchant an email for an Inbox entry, when outgoing mail is configured (SMTP_URL,
 * MAIL_FROM). The service event's intake calls this before it answers 200, so an answered delivery
 * means the email is in the outbox; the mail sender (mail-sender.server.ts) sends it, retrying
 * until the mail server takes it. A repeated delivery owes nothing new, and one that follows a
 * crash owes what the first one could not record.
 */
import { config } from "../config.server";
import { oweNotificationMail } from "../models/notification-mails.server";
import { nudgeMailSender } from "./mail-sender.server";

export interface InboxEvent {
  shopDomain: string;
  threadId: string;
  eventId: string;
  eventType: string;
  receivedAt: Date;
  /** The delivery created the thread's Inbox entry. */
  newInboxEntry: boolean;
}

/**
 * The shopper's contact form is owed an email at once (each form its own). A request to talk to a
 * person is owed one per thread, due after HANDOFF_MAIL_WAIT_SECONDS: the form that usually follows
 * it (the service sends them as separate deliveries) says everything, and the sender skips the
 * request's email when the entry has the form by then. Which email is owed is decided by the
 * event's kind, not by reading the entry, so two deliveries at once on two app instances cannot
 * both decide to mail.
 */
export async function oweInboxNotification(event: InboxEvent): Promise<void> {
  const mail = config().mail;
  if (!mail) return;
  const base = { shopDomain: event.shopDomain, threadId: event.threadId };
  if (event.eventType === "contact.submitted") {
    await oweNotificationMail({
      ...base,
      kind: "contact",
      key: event.eventId,
      notBefore: event.receivedAt,
    });
    nudgeMailSender();
    return;
  }
  if (event.eventType !== "handoff.requested" && !event.newInboxEntry) return;
  await oweNotificationMail({
    ...base,
    kind: "handoff",
    key: event.threadId,
    notBefore: new Date(event.receivedAt.getTime() + mail.handoffMailWaitMs),
  });
  if (mail.handoffMailWaitMs === 0) nudgeMailSender();
}
