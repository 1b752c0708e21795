/** Shared by the index-service contract tests: emulator, clients, a local webhook receiver. */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { IndexServiceClient, type IndexServiceClientOptions } from "../../app/index-service/client";
import type { ChatEvent } from "../../app/index-service/chat-events";
import type { IndexProduct } from "../../app/index-service/types";
import type { RunningEmulator } from "../../dev/emulator/server";

export const KEYS = {
  personal: "svc_sk_test_personal",
  personalPublishable: "svc_pk_test_personal",
  starter: "svc_sk_test_starter",
  starterPublishable: "svc_pk_test_starter",
  professional: "svc_sk_test_professional",
  enterprise: "svc_sk_test_enterprise",
  revoked: "svc_sk_test_revoked",
  trialExpired: "svc_sk_test_trial_expired",
  inactive: "svc_sk_test_inactive",
} as const;

export function clientFor(
  emulator: RunningEmulator,
  apiKey: string,
  options: Partial<IndexServiceClientOptions> = {},
): IndexServiceClient {
  return new IndexServiceClient({ baseUrl: emulator.url, apiKey, ...options });
}

export function product(id: string, name: string, extra: Partial<IndexProduct> = {}): IndexProduct {
  return { id, name, ...extra };
}

export function products(count: number, prefix = "p"): IndexProduct[] {
  return Array.from({ length: count }, (_, index) => product(`${prefix}${index}`, `Item ${index}`));
}

export async function collect<T = ChatEvent>(events: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const event of events) out.push(event);
  return out;
}

/** Calls `fn` and returns what it threw (fails the test if nothing was thrown). */
export async function caught(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to throw");
}

export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  raw: string;
  body: { id: string; event_type: string; created_at: string; data: Record<string, unknown> };
}

export interface Receiver {
  url: string;
  received: ReceivedDelivery[];
  /** Resolves once `count` deliveries matched (bounded by the test timeout). */
  waitFor(predicate: (all: ReceivedDelivery[]) => boolean): Promise<void>;
  close(): Promise<void>;
}

/**
 * A webhook receiver on 127.0.0.1. `answer` gives the status for each delivery (by 1-based
 * count), or "hang" to never answer.
 */
export async function startReceiver(
  answer: (delivery: ReceivedDelivery, count: number) => number | "hang" = () => 200,
): Promise<Receiver> {
  const received: ReceivedDelivery[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const delivery: ReceivedDelivery = {
        headers: req.headers,
        raw,
        body: JSON.parse(raw) as ReceivedDelivery["body"],
      };
      received.push(delivery);
      for (const waiter of [...waiters]) waiter();
      const status = answer(delivery, received.length);
      if (status === "hang") return;
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    waitFor: (predicate) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (predicate(received)) {
            waiters.delete(check);
            resolve();
          }
        };
        waiters.add(check);
        check();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
