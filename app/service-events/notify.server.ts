/**
 * An email to the merchant for each new Inbox entry, when outgoing mail is configured (SMTP_URL,
 * MAIL_FROM). Sent after the delivery is answered: a slow or failing mail server never delays the
 * service's webhook, and the entry is in the Inbox either way.
 */
import nodemailer, { type Transporter } from "nodemailer";
import { config, type MailSettings } from "../config.server";
import prisma from "../db.server";

let transport: { settings: MailSettings; transporter: Transporter } | undefined;

function transporterFor(settings: MailSettings): Transporter {
  if (transport?.settings !== settings) {
    transport = { settings, transporter: nodemailer.createTransport(settings.smtpUrl) };
  }
  return transport.transporter;
}

/**
 * Fire and forget: the route does not wait; failures are logged without the SMTP settings. The
 * shopper's contact form is mailed at once. A request to talk to a person waits a little for the
 * form that usually follows it (the service sends them as separate deliveries): if the form came,
 * the form's own delivery sends the one email; if not, the request is mailed alone. Which delivery
 * mails is decided by its kind, not by reading the entry first: two deliveries that both found the
 * form stored would both have mailed. The check after the wait reads the stored entry, so it holds
 * across app instances.
 */
export function notifyInboxEntry(shopDomain: string, threadId: string, contactForm: boolean): void {
  notifyOnce(shopDomain, threadId, contactForm).catch((error: unknown) => {
    console.warn(
      `[inbox] ${shopDomain}: the notification email could not be sent: ${
        error instanceof Error ? error.message : String(error)
      }`,
    );
  });
}

async function notifyOnce(shopDomain: string, threadId: string, contactForm: boolean) {
  const mail = config().mail;
  if (!mail) return;
  if (!contactForm) {
    await new Promise((resolve) => setTimeout(resolve, mail.handoffMailWaitMs));
    if ((await entryOf(shopDomain, threadId))?.contactSubmitted) return;
  }
  await sendInboxNotification(shopDomain, threadId);
}

function entryOf(shopDomain: string, threadId: string) {
  return prisma.inboxItem.findUnique({
    where: { shopDomain_threadId: { shopDomain, threadId } },
  });
}

/** Sends the notification of one Inbox entry; false when mail is off or there is no recipient. */
async function sendInboxNotification(shopDomain: string, threadId: string): Promise<boolean> {
  const env = config();
  if (!env.mail) return false;
  const [shop, entry] = await Promise.all([
    prisma.shop.findUnique({ where: { shopDomain } }),
    prisma.inboxItem.findUnique({ where: { shopDomain_threadId: { shopDomain, threadId } } }),
  ]);
  const to = env.mail.notifyTo ?? shop?.contactEmail;
  if (!entry || !to) return false;
  const who = entry.name ?? entry.email ?? "A shopper";
  const kind = entry.contactSubmitted ? "contact request" : "request to talk to a person";
  const lines = [
    `${who} sent a ${kind} through the chat on your store.`,
    "",
    `Name: ${entry.name ?? "(not given)"}`,
    `Email: ${entry.email ?? "(not given)"}`,
    `Phone: ${entry.phone ?? "(not given)"}`,
    `Message: ${entry.message ?? "(none)"}`,
    "",
    `Open the Inbox: ${env.appUrl}/app/inbox`,
  ];
  await transporterFor(env.mail).sendMail({
    from: env.mail.from,
    to,
    ...(entry.email ? { replyTo: entry.email } : {}),
    subject: `New ${kind} from ${who}`.replace(/[\r\n]+/g, " ").slice(0, 200),
    text: lines.join("\n"),
  });
  return true;
}
