/**
 * The app's metrics in Prometheus' text format (prom-client): every metric is defined here, once
 * per process, in a registry of its own; the code that counts calls `appMetrics()` at the one
 * place where the thing happens. `GET /metrics` serves them (./metrics-route.ts) on the app server
 * and on `npm run worker`'s WORKER_PORT, behind METRICS_TOKEN. What each one means, and why no
 * label names a shop: docs/operations.md, Metrics.
 *
 * Every label takes a bounded set of values (topics the app subscribes to, outcomes, endpoint
 * templates, status codes): a label value never comes from a shop, a shopper or a request as is.
 * The one exception is opt-in: the `_by_shop` series carry a `shop` label for the few shops
 * METRICS_SHOP_LABELS names, and for no other shop; the series without it count every shop as
 * before, so that alert rules and dashboards written for them stay true.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { config } from "../config.server";
import { observeServiceAnswers, type ServiceAnswer } from "../index-service/client";
import type { OutboxBacklog } from "../models/outbox.server";
import type { WebhookObserver } from "./webhook-routes";

const PREFIX = "catalog_chat_";

/**
 * The webhook topics the app subscribes to (shopify.app.toml, checked by
 * test/server/metrics.test.ts): any other X-Shopify-Topic is counted as "other".
 */
export const WEBHOOK_TOPICS: readonly string[] = [
  "app/uninstalled",
  "app/scopes_update",
  "products/create",
  "products/update",
  "products/delete",
  "inventory_levels/update",
  "collections/create",
  "collections/update",
  "collections/delete",
  "shop/update",
  "domains/create",
  "domains/update",
  "domains/destroy",
  "locales/create",
  "locales/update",
  "locales/destroy",
  "markets/create",
  "markets/update",
  "markets/delete",
  "metafield_definitions/create",
  "metafield_definitions/update",
  "metafield_definitions/delete",
  "bulk_operations/finish",
  "customers/data_request",
  "customers/redact",
  "shop/redact",
];

/** A webhook delivery's outcome, from the status it was answered with. */
export function webhookOutcome(status: number): string {
  if (status >= 200 && status < 300) return "accepted";
  if (status === 401) return "unauthorized";
  if (status === 413) return "too_large";
  if (status >= 400 && status < 500) return "refused";
  return "failed";
}

/** The topic label: a topic the app subscribes to, else "other" (the header is not signed). */
export function webhookTopicLabel(header: string | null | undefined): string {
  const topic = (header ?? "").trim().toLowerCase();
  return WEBHOOK_TOPICS.includes(topic) ? topic : "other";
}

/** The endpoint label of a request to the service: its method and path with any id as `:id`. */
export function serviceEndpointLabel(method: string, path: string): string {
  const template = path
    .split("?")[0]!
    .replace(/^\/(products|posts|webhooks)\/(?!search$|bulk$)[^/]+/, "/$1/:id");
  return `${method} ${template}`;
}

function createMetrics(registry: Registry, shopLabels: readonly string[]) {
  const registers = [registry];
  let liveWorker: { lastLoopAt(): number } | undefined;
  const listed = new Set(shopLabels);
  /**
   * The outbox gauges, read from the database once per scrape: a scrape collects every metric at
   * once, so each gauge waits for the one read in flight (a value set by another gauge's collect
   * would be the previous scrape's).
   */
  let outboxRead: Promise<void> | undefined;
  const readOutbox = (): Promise<void> =>
    (outboxRead ??= loadOutbox().finally(() => (outboxRead = undefined)));
  async function loadOutbox(): Promise<void> {
    // Imported when scraped: the code that counts (the pacer, the client) stays free of the
    // database client.
    const { outboxBacklog, outboxBacklogByShop } = await import("../models/outbox.server");
    const [backlog, byShop] = await Promise.all([
      outboxBacklog(),
      listed.size > 0 ? outboxBacklogByShop([...listed]) : new Map<string, OutboxBacklog>(),
    ]);
    metrics.outboxChanges.set({ state: "waiting" }, backlog.waiting);
    metrics.outboxChanges.set({ state: "held_for_quota" }, backlog.heldForQuota);
    metrics.outboxOldestAge.set(ageSeconds(backlog.oldestReceivedAt));
    for (const [shop, shopBacklog] of byShop) {
      metrics.byShop.outboxChanges.set({ shop, state: "waiting" }, shopBacklog.waiting);
      metrics.byShop.outboxChanges.set({ shop, state: "held_for_quota" }, shopBacklog.heldForQuota);
      metrics.byShop.outboxOldestAge.set({ shop }, ageSeconds(shopBacklog.oldestReceivedAt));
    }
  }
  const metrics = {
    webhookDeliveries: new Counter({
      name: `${PREFIX}webhook_deliveries_total`,
      help: "Shopify webhook deliveries answered, by topic and outcome (accepted, unauthorized, refused, too_large, failed).",
      labelNames: ["topic", "outcome"] as const,
      registers,
    }),
    webhookIntakeSeconds: new Histogram({
      name: `${PREFIX}webhook_intake_seconds`,
      help: "Time from a Shopify webhook delivery's arrival to its answer (durable in the outbox when accepted).",
      labelNames: ["topic"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    }),
    outboxChanges: new Gauge({
      name: `${PREFIX}outbox_changes`,
      help: "Product changes in the outbox, every shop together: waiting to be sent, or held until the shop's quota comes back.",
      labelNames: ["state"] as const,
      registers,
      async collect() {
        await readOutbox();
      },
    }),
    outboxOldestAge: new Gauge({
      name: `${PREFIX}outbox_oldest_change_age_seconds`,
      help: "How long the change that has waited longest in the outbox has waited (held ones left out); 0 when none waits: the index's lag behind the store.",
      registers,
      async collect() {
        await readOutbox();
      },
    }),
    liveWorkerLastLoop: new Gauge({
      name: `${PREFIX}live_worker_last_loop_timestamp_seconds`,
      help: "When this process's live worker last finished a round of its loop (Unix time); absent where no live worker runs.",
      registers,
      collect() {
        if (liveWorker) this.set(liveWorker.lastLoopAt() / 1000);
      },
    }),
    liveWorkerChanges: new Counter({
      name: `${PREFIX}live_worker_changes_total`,
      help: "Product changes the live worker took from the outbox and applied (sent, found unchanged, or refused).",
      registers,
    }),
    liveWorkerCpuSeconds: new Counter({
      name: `${PREFIX}live_worker_cpu_seconds_total`,
      help: "CPU time (user + system) of the process while the live worker served a shop, less its CPU while the passes waited out a rate limit or a backoff: an upper bound of the worker's own, since the process's other work while a pass worked counts too.",
      registers,
    }),
    serviceAnswers: new Counter({
      name: `${PREFIX}service_answers_total`,
      help: "Answers of the search and chat service, by endpoint (method and path template) and HTTP status; status none: no answer (network error, timeout).",
      labelNames: ["endpoint", "status"] as const,
      registers,
    }),
    rateLimitedWaits: new Counter({
      name: `${PREFIX}service_rate_limited_waits_total`,
      help: "429 answers of the service waited out by the shops' pacers.",
      registers,
    }),
    rateLimitedWaitSeconds: new Counter({
      name: `${PREFIX}service_rate_limited_wait_seconds_total`,
      help: "Seconds the pacers were told to wait by the service's 429 answers.",
      registers,
    }),
    fullSyncs: new Counter({
      name: `${PREFIX}full_syncs_total`,
      help: "Full syncs carried to their end by this process, by outcome (succeeded, failed).",
      labelNames: ["outcome"] as const,
      registers,
    }),
    items: new Counter({
      name: `${PREFIX}items_total`,
      help: "Items written to the index, by kind (product, post) and outcome: sent, deleted, or left out (refused by the service, over_quota).",
      labelNames: ["kind", "outcome"] as const,
      registers,
    }),
    leasesHeld: new Gauge({
      name: `${PREFIX}leases_held`,
      help: "Shop leases this process holds (the shops it sends for).",
      registers,
    }),
    leasesLost: new Counter({
      name: `${PREFIX}leases_taken_over_total`,
      help: "Shop leases of this process that another process took over (this one stopped sending for the shop).",
      registers,
    }),
    serviceEvents: new Counter({
      name: `${PREFIX}service_events_total`,
      help: "Event deliveries from the service, by outcome (stored, duplicate, held, bad-signature, unknown-shop, malformed, ...).",
      labelNames: ["outcome"] as const,
      registers,
    }),
    notificationMails: new Counter({
      name: `${PREFIX}notification_mails_total`,
      help: "Inbox notification emails, by outcome (sent, failed: retried later).",
      labelNames: ["outcome"] as const,
      registers,
    }),
    adminApiPoints: new Counter({
      name: `${PREFIX}admin_api_points_total`,
      help: "Shopify Admin API cost points used (the answers' actual query cost).",
      registers,
    }),
    adminApiThrottled: new Counter({
      name: `${PREFIX}admin_api_throttled_total`,
      help: "Shopify Admin API answers THROTTLED (waited out and asked again).",
      registers,
    }),
    /** The same figures for the shops METRICS_SHOP_LABELS names, with a `shop` label. */
    byShop: {
      webhookDeliveries: new Counter({
        name: `${PREFIX}webhook_deliveries_by_shop_total`,
        help: "Shopify webhook deliveries answered, for the shops METRICS_SHOP_LABELS names, by shop and outcome (the shop as the unsigned X-Shopify-Shop-Domain header names it).",
        labelNames: ["shop", "outcome"] as const,
        registers,
      }),
      outboxChanges: new Gauge({
        name: `${PREFIX}outbox_changes_by_shop`,
        help: "Product changes in the outbox of each shop METRICS_SHOP_LABELS names, by state (waiting, held_for_quota).",
        labelNames: ["shop", "state"] as const,
        registers,
        async collect() {
          await readOutbox();
        },
      }),
      outboxOldestAge: new Gauge({
        name: `${PREFIX}outbox_oldest_change_age_by_shop_seconds`,
        help: "How long the oldest waiting change of each shop METRICS_SHOP_LABELS names has waited; 0 when none waits.",
        labelNames: ["shop"] as const,
        registers,
        async collect() {
          await readOutbox();
        },
      }),
      fullSyncs: new Counter({
        name: `${PREFIX}full_syncs_by_shop_total`,
        help: "Full syncs carried to their end by this process, for the shops METRICS_SHOP_LABELS names, by shop and outcome.",
        labelNames: ["shop", "outcome"] as const,
        registers,
      }),
      items: new Counter({
        name: `${PREFIX}items_by_shop_total`,
        help: "Items written to the index or left out, for the shops METRICS_SHOP_LABELS names, by shop, kind and outcome.",
        labelNames: ["shop", "kind", "outcome"] as const,
        registers,
      }),
    },
    /** The shop's label when METRICS_SHOP_LABELS names it; undefined: not counted by shop. */
    shopLabel(shopDomain: string | null | undefined): string | undefined {
      const shop = (shopDomain ?? "").trim().toLowerCase();
      return listed.has(shop) ? shop : undefined;
    },
    /** A webhook delivery answered (app/server/webhook-routes.ts): its topic, shop, status, time. */
    countWebhookDelivery(delivery: Parameters<WebhookObserver>[0]): void {
      const topic = webhookTopicLabel(delivery.topic);
      const outcome = webhookOutcome(delivery.status);
      metrics.webhookDeliveries.inc({ topic, outcome });
      metrics.webhookIntakeSeconds.observe({ topic }, delivery.seconds);
      const shop = metrics.shopLabel(delivery.shop);
      if (shop) metrics.byShop.webhookDeliveries.inc({ shop, outcome });
    },
    /** Items of one shop (every shop in `items`, a listed one in `byShop.items` too). */
    countItems(shopDomain: string, kind: string, outcome: string, count: number): void {
      metrics.items.inc({ kind, outcome }, count);
      const shop = metrics.shopLabel(shopDomain);
      if (shop) metrics.byShop.items.inc({ shop, kind, outcome }, count);
    },
    /** The live worker whose loop the metrics report (the one this process runs). */
    watchLiveWorker(worker: { lastLoopAt(): number } | null | undefined): void {
      liveWorker = worker ?? undefined;
    },
  };
  return metrics;
}

function ageSeconds(since: Date | null): number {
  return since ? Math.max(0, (Date.now() - since.getTime()) / 1000) : 0;
}

export type AppMetrics = ReturnType<typeof createMetrics>;

/** The shops METRICS_SHOP_LABELS names; none where the configuration cannot be read. */
function configuredShopLabels(): readonly string[] {
  try {
    return config().metricsShopLabels;
  } catch {
    return [];
  }
}

/**
 * A registry of its own with the app's metrics, counting by shop for `shopLabels`: what a process
 * serves is appMetrics(); this is for a test that needs another list of shops.
 */
export function createAppMetrics(shopLabels: readonly string[]): {
  metrics: AppMetrics;
  scrape: () => Promise<string>;
} {
  const own = new Registry();
  return { metrics: createMetrics(own, shopLabels), scrape: () => own.metrics() };
}

let registry: Registry | undefined;
let current: AppMetrics | undefined;

/**
 * This process's metrics, made on first use. A process that serves /metrics calls it when it
 * starts (app/entry.server.tsx, app/cli/worker-process.ts), so the service client's answers are
 * counted from the first one.
 */
export function appMetrics(): AppMetrics {
  if (!current) {
    registry = new Registry();
    collectDefaultMetrics({ register: registry });
    current = createMetrics(registry, configuredShopLabels());
    const metrics = current;
    observeServiceAnswers((answer: ServiceAnswer) => {
      metrics.serviceAnswers.inc({
        endpoint: serviceEndpointLabel(answer.method, answer.path),
        status: answer.status === undefined ? "none" : String(answer.status),
      });
    });
  }
  return current;
}

/** What GET /metrics serves: the text and its content type. */
export async function scrapeMetrics(): Promise<{ contentType: string; text: string }> {
  appMetrics();
  return { contentType: registry!.contentType, text: await registry!.metrics() };
}
