/**
 * Webhook registry and deliveries (spec §3, §6): signed POSTs, a 30 s deadline, retries after
 * 1 min, 5 min, 30 min and 2 h (multiplied by timeScale), failed after the 5th failure with an
 * email to the account owner recorded. A failed webhook keeps receiving new events; it is marked
 * active again by its next successful delivery or by an update.
 */
import { randomUUID } from "node:crypto";
import type { Clock } from "./clock";
import { HttpError } from "./http-utils";
import { isObject } from "../http";
import { signBody } from "./signature";

export const WEBHOOK_EVENTS = [
  "product.created",
  "product.updated",
  "product.deleted",
  "post.created",
  "post.updated",
  "post.deleted",
  "chat.message_sent",
  "chat.conversation_started",
  "feedback.submitted",
  "handoff.requested",
  "handoff.accepted",
  "handoff.resolved",
  "contact.submitted",
] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Delay before attempts 2, 3, 4 and 5. */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000] as const;
export const MAX_ATTEMPTS = 5;
export const DELIVERY_TIMEOUT_MS = 30_000;

export interface WebhookRecord {
  id: string;
  account: string;
  name: string;
  url: string;
  events: WebhookEvent[];
  secret: string;
  status: "active" | "failed";
  created_at: string;
  updated_at: string;
  failed_at?: string;
}

export interface DeliveryAttempt {
  number: number;
  /** The schedule's delay before this attempt, unscaled (0, 60000, 300000, …). */
  delayBeforeMs: number;
  at: string;
  statusCode?: number;
  error?: string;
  durationMs: number;
}

export interface DeliveryRecord {
  id: string;
  webhookId: string;
  account: string;
  eventId: string;
  eventType: string;
  url: string;
  body: string;
  test: boolean;
  state: "pending" | "delivering" | "delivered" | "failed";
  attempts: DeliveryAttempt[];
  /** Real epoch ms of the next attempt, while one is scheduled. */
  nextAttemptAt?: number;
}

export interface EmailRecord {
  to: string;
  subject: string;
  text: string;
  at: string;
  webhookId: string;
  deliveryId: string;
}

export interface WebhookHubOptions {
  clock: Clock;
  timeScale: number;
  timeoutMs: number;
  ownerEmailOf: (account: string) => string;
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

function newId(prefix: string): string {
  return `${prefix}_${randomUUID().replace(/-/g, "").slice(0, 24)}`;
}

function validationError(message: string): HttpError {
  return new HttpError(400, "VALIDATION_ERROR", message);
}

export function isWebhookEvent(value: unknown): value is WebhookEvent {
  return typeof value === "string" && (WEBHOOK_EVENTS as readonly string[]).includes(value);
}

/** The fields of a create (all required) or an update (any of them). */
export function validateWebhookInput(body: unknown, partial: boolean) {
  if (!isObject(body)) throw validationError("The body must be a JSON object");
  const out: Partial<Pick<WebhookRecord, "name" | "url" | "events" | "secret">> = {};
  const present = (key: string) => body[key] !== undefined;
  if (!partial || present("name")) {
    if (typeof body.name !== "string" || body.name.trim() === "") {
      throw validationError("name is required");
    }
    out.name = body.name.trim();
  }
  if (!partial || present("url")) {
    if (typeof body.url !== "string") throw validationError("url is required");
    let url: URL;
    try {
      url = new URL(body.url);
    } catch {
      throw validationError("url is not a valid URL");
    }
    const loopback = LOOPBACK_HOSTS.has(url.hostname) || /^127\./.test(url.hostname);
    if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) {
      throw validationError("url must be an HTTPS URL (plain http only on loopback)");
    }
    out.url = url.toString();
  }
  if (!partial || present("events")) {
    if (!Array.isArray(body.events) || body.events.length === 0) {
      throw validationError("events must be a non-empty list");
    }
    const unknown = body.events.filter((event) => !isWebhookEvent(event));
    if (unknown.length > 0) throw validationError(`Unknown events: ${unknown.join(", ")}`);
    out.events = [...new Set(body.events as WebhookEvent[])];
  }
  if (!partial || present("secret")) {
    if (typeof body.secret !== "string" || body.secret === "") {
      throw validationError("secret is required");
    }
    out.secret = body.secret;
  }
  return out;
}

export function publicWebhook(webhook: WebhookRecord) {
  const { secret: _secret, account: _account, ...rest } = webhook;
  return rest;
}

export class WebhookHub {
  readonly webhooks = new Map<string, WebhookRecord>();
  deliveries: DeliveryRecord[] = [];
  emails: EmailRecord[] = [];
  readonly #timers = new Map<string, NodeJS.Timeout>();
  readonly #inFlight = new Set<AbortController>();
  readonly #waiters = new Set<() => void>();
  #closed = false;

  constructor(private readonly options: WebhookHubOptions) {}

  create(account: string, input: ReturnType<typeof validateWebhookInput>): WebhookRecord {
    const now = this.options.clock.iso();
    const webhook: WebhookRecord = {
      id: newId("wh"),
      account,
      name: input.name ?? "",
      url: input.url ?? "",
      events: input.events ?? [],
      secret: input.secret ?? "",
      status: "active",
      created_at: now,
      updated_at: now,
    };
    this.webhooks.set(webhook.id, webhook);
    return webhook;
  }

  get(account: string, id: string): WebhookRecord {
    const webhook = this.webhooks.get(id);
    if (!webhook || webhook.account !== account) {
      throw new HttpError(404, "NOT_FOUND", `No webhook ${id}`);
    }
    return webhook;
  }

  list(account: string): WebhookRecord[] {
    return [...this.webhooks.values()].filter((webhook) => webhook.account === account);
  }

  update(account: string, id: string, changes: ReturnType<typeof validateWebhookInput>) {
    const webhook = this.get(account, id);
    Object.assign(webhook, changes, { status: "active", updated_at: this.options.clock.iso() });
    delete webhook.failed_at;
    return webhook;
  }

  remove(account: string, id: string): void {
    this.get(account, id);
    this.webhooks.delete(id);
  }

  /** Delivers an event to every webhook of the account subscribed to it. */
  emit(account: string, eventType: WebhookEvent, data: Record<string, unknown>): void {
    for (const webhook of this.list(account)) {
      if (webhook.events.includes(eventType)) this.#enqueue(webhook, eventType, data, false);
    }
  }

  /** A test delivery to one webhook, subscribed or not; resolves after its first attempt. */
  async sendTest(webhook: WebhookRecord, eventType: WebhookEvent, data: Record<string, unknown>) {
    const delivery = this.#enqueue(webhook, eventType, data, true);
    await this.#waitFor(() => delivery.attempts.length > 0 || this.#closed);
    return delivery;
  }

  /** Runs every scheduled retry now. */
  flush(): void {
    for (const [id, timer] of this.#timers) {
      clearTimeout(timer);
      this.#timers.delete(id);
      const delivery = this.deliveries.find((candidate) => candidate.id === id);
      if (delivery) void this.#attempt(delivery);
    }
  }

  /** Resolves when every delivery so far is delivered or failed. */
  settled(): Promise<void> {
    return this.#waitFor(() =>
      this.deliveries.every((d) => d.state === "delivered" || d.state === "failed"),
    );
  }

  reset(): void {
    this.#cancelAll();
    this.webhooks.clear();
    this.deliveries = [];
    this.emails = [];
  }

  close(): void {
    this.#closed = true;
    this.#cancelAll();
    this.#notify();
  }

  #cancelAll(): void {
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    for (const controller of this.#inFlight) controller.abort();
    this.#inFlight.clear();
  }

  #enqueue(
    webhook: WebhookRecord,
    eventType: WebhookEvent,
    data: Record<string, unknown>,
    test: boolean,
  ): DeliveryRecord {
    const event = {
      id: newId("evt"),
      event_type: eventType,
      created_at: this.options.clock.iso(),
      data,
    };
    const delivery: DeliveryRecord = {
      id: newId("dlv"),
      webhookId: webhook.id,
      account: webhook.account,
      eventId: event.id,
      eventType,
      url: webhook.url,
      body: JSON.stringify(event),
      test,
      state: "pending",
      attempts: [],
    };
    this.deliveries.push(delivery);
    setImmediate(() => void this.#attempt(delivery));
    return delivery;
  }

  #waitFor(done: () => boolean): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (done() || this.#closed) {
          this.#waiters.delete(check);
          resolve();
        }
      };
      this.#waiters.add(check);
    });
  }

  #notify(): void {
    for (const check of [...this.#waiters]) check();
  }

  async #attempt(delivery: DeliveryRecord): Promise<void> {
    if (this.#closed || delivery.state === "delivering" || delivery.state === "delivered") return;
    if (!this.deliveries.includes(delivery)) return;
    const webhook = this.webhooks.get(delivery.webhookId);
    const number = delivery.attempts.length + 1;
    const delayBeforeMs = number === 1 ? 0 : (RETRY_DELAYS_MS[number - 2] ?? 0);
    delivery.state = "delivering";
    delete delivery.nextAttemptAt;
    const at = this.options.clock.iso();
    const started = performance.now();
    const controller = new AbortController();
    this.#inFlight.add(controller);
    const timer = setTimeout(() => controller.abort(), this.options.timeoutMs);
    let statusCode: number | undefined;
    let error: string | undefined;
    try {
      if (!webhook) throw new Error("the webhook was deleted");
      const response = await fetch(delivery.url, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "User-Agent": "index-service-emulator",
          "X-Webhook-Signature": signBody(webhook.secret, delivery.body),
          "X-Webhook-Event": delivery.eventType,
          "X-Webhook-Delivery": delivery.id,
        },
        body: delivery.body,
        redirect: "manual",
        signal: controller.signal,
      });
      statusCode = response.status;
      await response.body?.cancel().catch(() => undefined);
    } catch (cause) {
      error = controller.signal.aborted
        ? `no answer within ${this.options.timeoutMs} ms`
        : cause instanceof Error
          ? cause.message
          : String(cause);
    } finally {
      clearTimeout(timer);
      this.#inFlight.delete(controller);
    }
    if (this.#closed || !this.deliveries.includes(delivery)) return;
    const attempt: DeliveryAttempt = {
      number,
      delayBeforeMs,
      at,
      durationMs: Math.round(performance.now() - started),
    };
    if (statusCode !== undefined) attempt.statusCode = statusCode;
    if (error !== undefined) attempt.error = error;
    delivery.attempts.push(attempt);
    if (statusCode !== undefined && statusCode >= 200 && statusCode < 300) {
      delivery.state = "delivered";
      if (webhook && webhook.status === "failed") {
        webhook.status = "active";
        delete webhook.failed_at;
      }
    } else if (number >= MAX_ATTEMPTS) {
      delivery.state = "failed";
      this.#markFailed(delivery, webhook);
    } else {
      delivery.state = "pending";
      const delay = (RETRY_DELAYS_MS[number - 1] ?? 0) * this.options.timeScale;
      delivery.nextAttemptAt = Date.now() + delay;
      this.#timers.set(
        delivery.id,
        setTimeout(() => {
          this.#timers.delete(delivery.id);
          void this.#attempt(delivery);
        }, delay),
      );
    }
    this.#notify();
  }

  #markFailed(delivery: DeliveryRecord, webhook: WebhookRecord | undefined): void {
    const at = this.options.clock.iso();
    if (webhook) {
      webhook.status = "failed";
      webhook.failed_at = at;
    }
    const name = webhook?.name ?? delivery.webhookId;
    this.emails.push({
      to: this.options.ownerEmailOf(delivery.account),
      subject: `Webhook "${name}" failed`,
      text: `The ${delivery.eventType} event ${delivery.eventId} could not be delivered to ${delivery.url} after ${MAX_ATTEMPTS} attempts.`,
      at,
      webhookId: delivery.webhookId,
      deliveryId: delivery.id,
    });
  }
}
