/**
 * The mail sender: sends the notification emails the outbox owes (app/models/notification-mails),
 * one at a time, in every process that runs background work (the app server, `npm run worker`).
 * Each email is claimed for a while before it is sent and marked sent after, so two processes
 * never send the same row at once and a process killed mid-send leaves it to be taken again when
 * its claim runs out. Its Message-ID is the same at every attempt, so the one duplicate a crash
 * between the mail server's "accepted" and the mark can cause is recognisable as the same email.
 */
import { appMetrics } from "../server/metrics";
import { createHash } from "node:crypto";
import nodemailer, { type Transporter } from "nodemailer";
import { config, type MailSettings } from "../config.server";
import {
  claimDueMails,
  failMail,
  retryMailsWaitingForServer,
  settleMail,
  type Claim,
} from "../models/notification-mails.server";
import { inboxEntryOf } from "../models/inbox.server";
import { findShop } from "../models/shops.server";
import { notificationContent } from "./notification-mail";
import { logFor } from "../server/log";

const log = logFor("mail");

// One at a time: a claim is not held while other emails are sent.
const CLAIMED_AT_ONCE = 1;
const MAX_RETRY_MS = 60 * 60_000;

/** The mail server's timeouts, within a claim (MAIL_LEASE_SECONDS) so a send ends before it. */
function smtpTimeouts(leaseMs: number) {
  const quarter = Math.floor(leaseMs / 4);
  return {
    connectionTimeout: Math.min(15_000, quarter),
    greetingTimeout: Math.min(15_000, quarter),
    socketTimeout: Math.min(60_000, quarter),
  };
}

export interface MailSender {
  /** Looks at the outbox now (a mail was just owed). */
  nudge(): void;
  stop(): Promise<void>;
}

const KEY = Symbol.for("catalog-chat.mail-sender");
type WithSender = typeof globalThis & { [KEY]?: MailSender };

/** Wakes this process's sender, if it runs one; otherwise another process's poll finds the mail. */
export function nudgeMailSender(): void {
  (globalThis as WithSender)[KEY]?.nudge();
}

/** Starts the sender once per process when outgoing mail is configured; null when it is not. */
export function startMailSender(now: () => Date = () => new Date()): MailSender | null {
  const mail = config().mail;
  if (!mail) return null;
  const holder = globalThis as WithSender;
  if (holder[KEY]) return holder[KEY];
  let stopped = false;
  let wake: (() => void) | undefined;
  let nudged = false;
  const transporter = nodemailer.createTransport({
    url: mail.smtpUrl,
    ...smtpTimeouts(mail.leaseMs),
  });

  const loop = (async () => {
    while (!stopped) {
      try {
        await sendDue(mail, transporter, now);
      } catch (error) {
        log.error(`the outbox could not be read: ${errorText(error, mail)}`);
      }
      if (stopped) break;
      if (nudged) {
        nudged = false;
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, mail.pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  })();

  const sender: MailSender = {
    nudge() {
      nudged = true;
      wake?.();
    },
    async stop() {
      stopped = true;
      wake?.();
      await loop;
      transporter.close();
      if (holder[KEY] === sender) delete holder[KEY];
    },
  };
  holder[KEY] = sender;
  return sender;
}

async function sendDue(mail: MailSettings, transporter: Transporter, now: () => Date) {
  for (;;) {
    const claims = await claimDueMails(now(), mail.leaseMs, CLAIMED_AT_ONCE);
    if (claims.length === 0) return;
    for (const claim of claims) await sendClaimed(claim, mail, transporter, now);
  }
}

async function sendClaimed(
  claim: Claim,
  mail: MailSettings,
  transporter: Transporter,
  now: () => Date,
): Promise<void> {
  const { shopDomain, threadId } = claim.mail;
  const [shop, entry] = await Promise.all([
    findShop(shopDomain),
    inboxEntryOf(shopDomain, threadId),
  ]);
  const to = mail.notifyTo ?? shop?.contactEmail;
  // Gone (pruned, redacted, uninstalled), nobody to tell, or a handoff request whose contact form
  // came during the wait: the form's own email says everything.
  if (!entry || !to || (claim.mail.kind === "handoff" && entry.contactSubmitted)) {
    await settleMail(claim, "skipped", now());
    return;
  }
  const env = config();
  const content = notificationContent(entry, `${env.appUrl}/app/inbox`);
  try {
    await transporter.sendMail({
      from: mail.from,
      to,
      ...(content.replyTo ? { replyTo: content.replyTo } : {}),
      subject: content.subject,
      text: content.text,
      messageId: messageIdOf(claim, env.appUrl),
    });
  } catch (error) {
    const reason = errorText(error, mail);
    const wait = Math.min(
      MAX_RETRY_MS,
      mail.retryBaseMs * 2 ** Math.min(20, claim.mail.attempts - 1),
    );
    const at = now();
    await failMail(
      claim,
      { reason, retryAt: new Date(at.getTime() + wait), serverUnreachable: !repliedWith(error) },
      at,
    );
    appMetrics().notificationMails.inc({ outcome: "failed" });
    log.warn(
      { shop: shopDomain },
      `a notification email could not be sent (attempt ${claim.mail.attempts}, next in ${Math.round(wait / 1000)} s): ${reason}`,
    );
    return;
  }
  appMetrics().notificationMails.inc({ outcome: "sent" });
  if (!(await settleMail(claim, "sent", now()))) {
    log.warn({ shop: shopDomain }, "a notification was sent after its claim ran out");
  }
  // The mail server is back: what waited for it goes now, not at the end of a backoff that grew
  // through the outage (up to an hour).
  await retryMailsWaitingForServer(now());
}

/** The mail server answered (an SMTP reply code: it refused this email); otherwise it was not reached. */
function repliedWith(error: unknown): boolean {
  return typeof (error as { responseCode?: unknown } | null)?.responseCode === "number";
}

/** The same at every attempt of one notification, and never the same for two. */
export function messageIdOf(claim: Claim, appUrl: string): string {
  const host = new URL(appUrl).hostname || "catalog-chat.invalid";
  const id = createHash("sha256")
    .update(`${claim.mail.shopDomain}\n${claim.mail.mailKey}\n${claim.mail.id}`)
    .digest("hex")
    .slice(0, 32);
  return `<notification.${id}@${host}>`;
}

/** The failure in a line, without the SMTP settings (the URL may hold a password). */
function errorText(error: unknown, mail: MailSettings): string {
  const text = (error instanceof Error ? error.message : String(error))
    .split(mail.smtpUrl)
    .join("SMTP_URL")
    .replace(/\/\/[^@\s/]*@/g, "//***@")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > 200 ? `${text.slice(0, 199)}…` : text || "unknown error";
}
