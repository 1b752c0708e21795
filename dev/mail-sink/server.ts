/**
 * A local mail catcher for the demo and tests: an SMTP server on loopback that keeps every message
 * it receives (nothing is relayed, nothing leaves the machine) and a small web page that shows them.
 */
import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { listen, sendJson } from "../http";

export interface CaughtMail {
  from: string;
  to: string;
  replyTo: string;
  /** The Message-ID header: the app's is the same at every attempt of one notification. */
  messageId: string;
  subject: string;
  text: string;
  at: string;
}

export interface RunningMailSink {
  /** smtp://127.0.0.1:<port>: what SMTP_URL is set to. */
  smtpUrl: string;
  /** The page that lists the caught mail. */
  url: string;
  messages(): CaughtMail[];
  /** Messages refused with a 550 by `refuse` (not in `messages()`). */
  refused(): CaughtMail[];
  close(): Promise<void>;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1)$/;
const MAX_MESSAGE_BYTES = 1024 * 1024;

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );
}

function page(messages: CaughtMail[]): string {
  const items = messages
    .slice()
    .reverse()
    .map(
      (m) => `<article>
  <h2>${escapeHtml(m.subject)}</h2>
  <p>From ${escapeHtml(m.from)} to ${escapeHtml(m.to)}${m.replyTo ? ` (reply to ${escapeHtml(m.replyTo)})` : ""}, ${escapeHtml(m.at)}</p>
  <pre>${escapeHtml(m.text)}</pre>
</article>`,
    )
    .join("\n");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Caught mail</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:50rem}article{border-top:1px solid #ccc;padding:.5rem 0}pre{white-space:pre-wrap}</style>
</head><body><h1>Caught mail (${messages.length})</h1>
<p>Mail the app sent during this demo. Nothing here left the machine.</p>
${items || "<p>No mail yet.</p>"}
</body></html>`;
}

export async function startMailSink(
  options: {
    host?: string;
    smtpPort?: number;
    httpPort?: number;
    /** Where a failed connection is reported (default: nowhere). */
    log?: (line: string) => void;
    /**
     * Messages to refuse with "550", as a mail server refuses a message it will not take; a
     * string is the refusal's text (a server's often quotes an address of the message).
     */
    refuse?: (mail: CaughtMail) => boolean | string;
  } = {},
): Promise<RunningMailSink> {
  const host = options.host ?? "127.0.0.1";
  const log = options.log ?? (() => undefined);
  if (!LOOPBACK.test(host)) throw new Error(`The mail sink binds to loopback only, not ${host}.`);
  const messages: CaughtMail[] = [];
  const refused: CaughtMail[] = [];
  const smtp = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    size: MAX_MESSAGE_BYTES,
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const addresses = (value: typeof mail.to) =>
            (Array.isArray(value) ? value : value ? [value] : []).map((a) => a.text).join(", ");
          const caught: CaughtMail = {
            from: mail.from?.text ?? "",
            to: addresses(mail.to),
            replyTo: mail.replyTo?.text ?? "",
            messageId: mail.messageId ?? "",
            subject: mail.subject ?? "",
            text: mail.text ?? "",
            at: (mail.date ?? new Date()).toISOString(),
          };
          const refusal = options.refuse?.(caught);
          if (refusal) {
            refused.push(caught);
            const text = typeof refusal === "string" ? refusal : "Message refused";
            callback(Object.assign(new Error(text), { responseCode: 550 }));
            return;
          }
          messages.push(caught);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp.once("error", reject);
    smtp.listen(options.smtpPort ?? 0, host, () => {
      smtp.off("error", reject);
      resolve();
    });
  });
  // A client that resets its connection mid-message (a killed app, a test) is that connection's
  // end, not the sink's: without a listener the error event would stop the whole demo.
  smtp.on("error", (error: NodeJS.ErrnoException) =>
    log(`[mail-sink] a connection failed: ${error.code ?? error.message}`),
  );
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  const http: Server = createHttpServer((req, res) => {
    if (req.url === "/messages.json") {
      sendJson(res, 200, messages);
      return;
    }
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(page(messages));
  });
  const httpPort = await listen(http, options.httpPort ?? 0, host);
  return {
    smtpUrl: `smtp://${host}:${smtpPort}`,
    url: `http://${host}:${httpPort}/`,
    messages: () => [...messages],
    refused: () => [...refused],
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    },
  };
}
