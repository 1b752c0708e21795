/**
 * Another process holding SQLite's write lock (the worker committing, a backup, an operator's
 * sqlite3 shell) may make the app's writes wait or fail while it lasts, never after: once the lock
 * is gone every flow that writes in a transaction (app/uninstalled, app/scopes_update,
 * customers/redact, shop/redact, leaving a former workspace) and every delivery succeeds, and the
 * app holds no lock of its own. The lock is held by python3's sqlite3 module in a process of its
 * own; routes are called as the server calls them, and over HTTP where the process's answers
 * to others are the subject. SQLite only (PostgreSQL has no file lock).
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createInterface, type Interface } from "node:readline";
import type { ActionFunctionArgs } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareAppEnvironment, TEST_API_SECRET } from "../../testkit/app-environment";
import { callAction } from "../../testkit/route-call";
import { shopifyWebhookRequest } from "../../testkit/shopify-webhook";
import { onPostgres } from "../../testkit/test-database";
import prisma from "../../app/models/db.server";
import { startAppServer } from "../../app/server/app-server";
import { switchToWriteAheadLog } from "../../app/models/write-ahead-log.server";
import { leaveFormerPlace } from "../../app/sync/full/leave-former-place.server";
import { action as appUninstalled } from "../../app/routes/webhooks.app.uninstalled";
import { action as appScopesUpdate } from "../../app/routes/webhooks.app.scopes_update";
import { action as customersRedact } from "../../app/routes/webhooks.customers.redact";
import { action as shopRedact } from "../../app/routes/webhooks.shop.redact";
import { action as productsUpdate } from "../../app/routes/webhooks.products";

type Action = (args: ActionFunctionArgs) => Promise<Response>;

/** A sqlite3 process taking orders on stdin: lock (and write), release, probe (can it write?). */
const LOCK_HOLDER = `
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=0)
for line in sys.stdin:
    order = line.strip()
    if order == "lock":
        db.execute("BEGIN IMMEDIATE")
        db.execute("UPDATE Shop SET updatedAt = updatedAt")
        print("locked", flush=True)
    elif order == "release":
        db.execute("COMMIT")
        print("released", flush=True)
    elif order == "probe":
        try:
            db.execute("BEGIN IMMEDIATE")
            db.execute("ROLLBACK")
            print("free", flush=True)
        except sqlite3.OperationalError as error:
            print("busy: " + str(error), flush=True)
`;

class LockHolder {
  #child: ChildProcessWithoutNullStreams;
  #lines: Interface;
  #answers: string[] = [];
  #waiting: ((line: string) => void)[] = [];

  constructor(databasePath: string) {
    this.#child = spawn("python3", ["-c", LOCK_HOLDER, databasePath]);
    this.#lines = createInterface({ input: this.#child.stdout });
    this.#lines.on("line", (line) => {
      const waiter = this.#waiting.shift();
      if (waiter) waiter(line);
      else this.#answers.push(line);
    });
  }

  order(order: "lock" | "release" | "probe"): Promise<string> {
    this.#child.stdin.write(`${order}\n`);
    const ready = this.#answers.shift();
    if (ready !== undefined) return Promise.resolve(ready);
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  stop(): void {
    this.#child.stdin.end();
    this.#lines.close();
  }
}

const SHOPS = {
  uninstalled: "lock-uninstall.myshopify.com",
  scopes: "lock-scopes.myshopify.com",
  customer: "lock-customer.myshopify.com",
  redacted: "lock-redact.myshopify.com",
  moved: "lock-moved.myshopify.com",
};

let holder: LockHolder;
const routes = {
  "app/uninstalled": appUninstalled,
  "app/scopes_update": appScopesUpdate,
  "customers/redact": customersRedact,
  "shop/redact": shopRedact,
  "products/update": productsUpdate,
} as unknown as Record<string, Action>;

/** A signed delivery through its route; an error the route throws is the server's 500. */
async function deliver(topic: string, shop: string, payload: object): Promise<number> {
  const request = shopifyWebhookRequest({
    topic,
    shop,
    body: JSON.stringify(payload),
    secret: TEST_API_SECRET,
  });
  try {
    return (await callAction(routes[topic]!, request)).status;
  } catch {
    return 500;
  }
}

const flows: [string, string, object][] = [
  ["app/uninstalled", SHOPS.uninstalled, { id: 1, domain: SHOPS.uninstalled }],
  ["app/scopes_update", SHOPS.scopes, { current: ["read_products", "read_content"] }],
  [
    "customers/redact",
    SHOPS.customer,
    { shop_domain: SHOPS.customer, customer: { id: 1, email: "john@example.com" } },
  ],
  ["shop/redact", SHOPS.redacted, { shop_id: 2, shop_domain: SHOPS.redacted }],
];

async function seed(): Promise<void> {
  for (const shopDomain of Object.values(SHOPS)) {
    await prisma.inboxItem.deleteMany({ where: { shopDomain } });
    await prisma.indexedItem.deleteMany({ where: { shopDomain } });
    await prisma.shop.deleteMany({ where: { shopDomain } });
    await prisma.shop.create({
      data: { shopDomain, state: "active", scopes: "read_products", workspaceId: "now" },
    });
  }
  await prisma.inboxItem.create({
    data: {
      shopDomain: SHOPS.customer,
      threadId: "t_john",
      email: "john@example.com",
      firstAt: new Date(),
      lastAt: new Date(),
    },
  });
  await prisma.shop.update({
    where: { shopDomain: SHOPS.moved },
    data: { formerWorkspaceId: "before" },
  });
  await prisma.indexedItem.create({
    data: {
      shopDomain: SHOPS.moved,
      workspaceId: "before",
      kind: "product",
      itemId: "1",
      contentHash: "h",
      sentAt: new Date(),
    },
  });
}

/** What each flow leaves when it ran: the user-visible outcome of every one. */
async function expectEveryFlowDone(): Promise<void> {
  const uninstalled = await prisma.shop.findUnique({ where: { shopDomain: SHOPS.uninstalled } });
  expect(uninstalled?.state).toBe("uninstalled");
  const scoped = await prisma.shop.findUnique({ where: { shopDomain: SHOPS.scopes } });
  expect(scoped?.scopes).toBe("read_products,read_content");
  expect(await prisma.inboxItem.count({ where: { shopDomain: SHOPS.customer } })).toBe(0);
  expect(await prisma.shop.count({ where: { shopDomain: SHOPS.redacted } })).toBe(0);
  const moved = await prisma.shop.findUniqueOrThrow({ where: { shopDomain: SHOPS.moved } });
  // No former key to empty it with: the one item stays there, no longer the app's.
  expect(await leaveFormerPlace(moved)).toBe(1);
  expect(await prisma.indexedItem.count({ where: { shopDomain: SHOPS.moved } })).toBe(0);
  const left = await prisma.shop.findUniqueOrThrow({ where: { shopDomain: SHOPS.moved } });
  expect(left.formerWorkspaceId).toBeNull();
}

describe.skipIf(onPostgres())("a SQLite write lock held by another process", () => {
  beforeAll(async () => {
    const { databasePath } = await prepareAppEnvironment({ BACKGROUND_WORK: "off" });
    await switchToWriteAheadLog(); // as the app server and the worker do at start
    holder = new LockHolder(databasePath!);
  });

  afterAll(() => holder?.stop());

  it("wedges nothing after it: a write refused while it lasted, then every transaction succeeds", async () => {
    await seed();
    expect(await holder.order("lock")).toBe("locked");
    // Refused after the busy timeout, with a status Shopify retries: this delivery's statement
    // is what used to stay "in progress" on the app's connection and make the next COMMIT fail.
    const product = { id: 7, title: "Lamp", updated_at: new Date().toISOString() };
    expect(await deliver("products/update", SHOPS.moved, product)).toBe(503);
    expect(await holder.order("release")).toBe("released");

    for (const [topic, shop, payload] of flows) {
      expect(await deliver(topic, shop, payload), topic).toBe(200);
    }
    await expectEveryFlowDone();
    expect(await deliver("products/update", SHOPS.moved, product)).toBe(200);
    expect(await holder.order("probe")).toBe("free");
  }, 60_000);

  it("while a delivery waits for it, the process stays responsive: /healthz answers at once, /readyz says not ready, and the delivery is answered 503 within Shopify's 5 s", async () => {
    await seed();
    const server = await startAppServer({ port: 0 });
    let locked = false;
    try {
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      expect(await holder.order("lock")).toBe("locked");
      locked = true;
      const product = { id: 8, title: "Desk", updated_at: new Date().toISOString() };
      const sent = Date.now();
      const delivery = fetch(
        shopifyWebhookRequest({
          topic: "products/update",
          shop: SHOPS.moved,
          body: JSON.stringify(product),
          secret: TEST_API_SECRET,
          url: `${server.url}/webhooks/products`,
        }),
      );
      // Not ready while the write waits (a second on), and alive throughout.
      const readiness = async () => {
        const response = await fetch(`${server.url}/readyz`);
        const { failing } = (await response.json()) as { failing: string[] };
        return { status: response.status, failing };
      };
      await expect
        .poll(readiness, { timeout: 2_900, interval: 100 })
        .toEqual({ status: 503, failing: ["databaseLock"] });
      const asked = Date.now();
      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).toBe(200);
      // SQLite's busy wait used to block the event loop: /healthz took 4.6 to 10.5 s.
      expect(Date.now() - asked).toBeLessThan(1_000);
      const answer = await delivery;
      expect(answer.status).toBe(503);
      expect(answer.headers.get("retry-after")).toBe("5");
      expect(Date.now() - sent).toBeLessThan(5_000);

      expect(await holder.order("release")).toBe("released");
      locked = false;
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      expect(await deliver("products/update", SHOPS.moved, product)).toBe(200);
    } finally {
      if (locked) await holder.order("release");
      await server.close();
    }
  }, 60_000);

  it("deliveries made while it lasted succeed when Shopify sends them again after it", async () => {
    await seed();
    expect(await holder.order("lock")).toBe("locked");
    const during = Promise.all(
      flows.map(([topic, shop, payload]) => deliver(topic, shop, payload)),
    );
    // Some may wait out the lock, some be refused after the busy timeout: either is fine.
    expect(await holder.order("release")).toBe("released");
    const statuses = await during;
    for (const [index, [topic, shop, payload]] of flows.entries()) {
      if (statuses[index] !== 200) expect(await deliver(topic, shop, payload), topic).toBe(200);
    }
    await expectEveryFlowDone();
    expect(await holder.order("probe")).toBe("free");
  }, 90_000);

  it("a transaction whose COMMIT fails is rolled back and holds no lock", async () => {
    // A deferred foreign key is checked at COMMIT: SQLite refuses the COMMIT and leaves the
    // transaction open, write lock held, until someone rolls it back.
    await expect(
      prisma.$transaction([
        prisma.$executeRaw`PRAGMA defer_foreign_keys = ON`,
        prisma.$executeRaw`INSERT INTO "SyncItem" ("runId", "kind", "itemId", "action") VALUES ('no-such-run', 'product', '1', 'upsert')`,
      ]),
    ).rejects.toThrow(/FOREIGN KEY/i);
    expect(await holder.order("probe")).toBe("free");
    expect(await prisma.syncItem.count({ where: { runId: "no-such-run" } })).toBe(0);
    const write = prisma.shop.update({
      where: { shopDomain: SHOPS.moved },
      data: { pauseReason: "after the failed commit" },
    });
    await expect(write).resolves.toMatchObject({ pauseReason: "after the failed commit" });
  });
});
