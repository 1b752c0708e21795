/**
 * No notification email is lost or doubled through kill -9 and a mail outage (issue 23, item 4):
 * the app's production build in its own process with its background work on and an
 * `npm run worker` process beside it (both send from the one outbox), the service emulator
 * delivering a stream of shoppers' contact requests to it, the local mail sink as the mail server.
 * During the stream the app is killed with SIGKILL twice and started again once deliveries to it
 * have failed (the emulator retries them, as the service does), and the mail server is down for a
 * stretch that lasts until a send has failed and spans the second kill. In the end every shopper's request has reached the merchant's mailbox, as one
 * email (one Message-ID).
 *
 * What SMTP cannot prevent: a process killed after the mail server took an email and before the
 * outbox marked it sent leaves it to be sent again, with the same Message-ID. So at most one copy
 * per kill may arrive twice; any other difference fails.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMailSink, type CaughtMail, type RunningMailSink } from "../../dev/mail-sink/server";
import { prepareAppEnvironment } from "../../testkit/app-environment";
import { startTestEmulator, type RunningEmulator } from "../../testkit/emulator";
import { freePort } from "../../testkit/free-port";
import { requireCurrentBuild, waitFor } from "../../testkit/live-stack";
import { askForAPerson, connectShop, SHOP_A } from "../../testkit/service-events-stack";
import { npmCommand } from "../../testkit/npm-command";

const ROOT = join(import.meta.dirname, "..", "..");
const SHOPPERS = 30;

let emulator: RunningEmulator;
let mail: RunningMailSink;
/** What the mail server caught before its outage: the merchant's mailbox keeps it. */
const caughtBeforeOutage: CaughtMail[] = [];
const mailbox = () => [...caughtBeforeOutage, ...mail.messages()];
let smtpPort: number;
let port: number;
/** The app process, or its start under way. */
let app: Promise<ChildProcess>;
const processes = new Set<ChildProcess>();
/** What every app process printed. */
let appLog = "";

/** The app server (its production build), or `npm run worker`: both send the outbox's emails. */
function startProcess(role: "app" | "worker"): Promise<ChildProcess> {
  const command =
    role === "app" ? ["--import", "tsx", "testkit/app-server-process.ts"] : npmCommand("worker");
  const child = spawn(process.execPath, command, {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), BACKGROUND_WORK: "on", LIVE_WORKER: "separate" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  processes.add(child);
  return new Promise((resolve, reject) => {
    let output = "";
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      appLog += chunk.toString();
      if (/listening |worker .* started/.test(output)) resolve(child);
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.once("exit", (code, signal) => {
      if (signal !== "SIGKILL")
        reject(new Error(`the ${role} exited (${code ?? signal}): ${output}`));
    });
  });
}

const startApp = () => startProcess("app");

async function killApp(): Promise<void> {
  const child = await app;
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

beforeAll(async () => {
  requireCurrentBuild();
  smtpPort = await freePort();
  mail = await startMailSink({ smtpPort });
  emulator = await startTestEmulator({ webhookTimeoutMs: 5_000 });
  port = await freePort();
  await prepareAppEnvironment({
    INDEX_API_URL: emulator.url,
    SHOPIFY_APP_URL: `http://127.0.0.1:${port}`,
    // This process only sets up the shop and reads; the app process does the work.
    BACKGROUND_WORK: "off",
    RECONCILE_EVERY_HOURS: "0",
    RECONCILE_CHECK_EVERY_MINUTES: "0",
    SMTP_URL: mail.smtpUrl,
    MAIL_FROM: "Catalog Chat <inbox@catalog-chat.test>",
    NOTIFY_EMAIL: "owner@shop-a.test",
    HANDOFF_MAIL_WAIT_SECONDS: "1",
    MAIL_RETRY_SECONDS: "0.5",
    // A killed sender's claimed email is free again after 6 s (120 s by default).
    MAIL_LEASE_SECONDS: "6",
  });
  await connectShop(SHOP_A);
  app = startApp();
  await app;
  await startProcess("worker");
}, 60_000);

afterAll(async () => {
  for (const child of processes) if (child.exitCode === null) child.kill("SIGKILL");
  await emulator?.close();
  await mail?.close();
});

const shopperName = (i: number) => `Shopper ${String(i).padStart(2, "0")}`;

describe("notification emails through kill -9 and a mail outage", () => {
  it("reach the merchant once each", async () => {
    let next = 0;
    const shoppersWrite = async (count: number) => {
      for (const end = next + count; next < end; next++) {
        await askForAPerson(emulator.url, SHOP_A, `web_fault_${next}`, {
          name: shopperName(next),
          email: `shopper${next}@example.com`,
          phone: "",
          message: `Question ${next}`,
        });
      }
    };
    const unansweredDeliveries = () =>
      emulator.state.deliveries().filter((d) => d.state !== "delivered" && d.attempts.length > 0);
    /** kill -9 right after a shopper's request (its deliveries under way), more while it is down. */
    const killMidIntake = async () => {
      await shoppersWrite(1);
      await killApp();
      const before = unansweredDeliveries().length;
      await shoppersWrite(3);
      await waitFor(
        "deliveries to the dead app to fail",
        () => unansweredDeliveries().length > before,
      );
      app = startApp();
      await app;
    };

    await shoppersWrite(6);
    // Some emails reach the mail server before its outage; the merchant's mailbox keeps them.
    await waitFor("a first contact email", () =>
      mail.messages().some((m) => m.subject.startsWith("New contact request")),
    );
    await killMidIntake();
    // The mail server goes down: the app keeps taking requests and owes their emails.
    caughtBeforeOutage.push(...mail.messages());
    await mail.close();
    await shoppersWrite(5);
    await waitFor("a send to fail", () => /notification email could not be sent/.test(appLog));
    await killMidIntake();
    await shoppersWrite(4);
    mail = await startMailSink({ smtpPort });
    await shoppersWrite(SHOPPERS - next);

    await app;
    // The service retries what the app did not answer; retries are run now instead of in minutes.
    await waitFor(
      "every delivery to be answered",
      () => {
        emulator.state.flushWebhookRetries();
        return emulator.state.deliveries().every((d) => d.state === "delivered");
      },
      60_000,
    );
    const contactMails = (i: number) =>
      mailbox().filter((m) => m.subject === `New contact request from ${shopperName(i)}`);
    const missing = () =>
      Array.from({ length: SHOPPERS }, (_, i) => i).filter((i) => contactMails(i).length === 0);
    // The first email through after the outage brings forward those that waited for the server
    // (mail-after-outage.test.ts), so this does not wait out a backoff grown during the outage.
    await waitFor("every shopper's email", () => missing().length === 0, 120_000).catch(
      (error: Error) => {
        const mailLines = appLog.split("\n").filter((line) => line.includes('"component":"mail"'));
        throw new Error(
          `${error.message}: none for shoppers ${missing().join(", ")}; the senders said:\n${mailLines.slice(-20).join("\n")}`,
        );
      },
    );

    let copies = 0;
    for (let i = 0; i < SHOPPERS; i++) {
      const mails = contactMails(i);
      expect(new Set(mails.map((m) => m.messageId)).size, shopperName(i)).toBe(1);
      expect(mails[0]!.text).toContain(`Message: "Question ${i}"`);
      copies += mails.length - 1;
    }
    // A handoff request's own email goes only when its form came after the wait (a kill can
    // delay the form's delivery that long); never twice for one shopper.
    const byMessageId = new Map<string, number>();
    for (const m of mailbox())
      byMessageId.set(m.messageId, (byMessageId.get(m.messageId) ?? 0) + 1);
    const subjects = new Map<string, Set<string>>();
    for (const m of mailbox()) {
      subjects.set(m.subject, (subjects.get(m.subject) ?? new Set()).add(m.messageId));
    }
    for (const [subject, ids] of subjects) expect(ids.size, subject).toBe(1);
    const duplicates = [...byMessageId.values()].reduce((sum, n) => sum + n - 1, 0);
    expect(duplicates).toBeGreaterThanOrEqual(copies);
    expect(duplicates).toBeLessThanOrEqual(2);
  }, 420_000);
});
