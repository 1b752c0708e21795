/**
 * What a live pass's first read costs with its batch's ledger in it (decision 0062), printed,
 * never asserted:
 *   npx tsx bench/pass-start-ledger.bench.ts [--changes 1,100] [--calls 30]
 *   (on PostgreSQL: TEST_DATABASE=postgresql, as the test suites)
 *
 * A new migrated database with one shop's changes (`--changes` of them) and each changed product's
 * ledger row in two workspaces (the shop's own, with a 2,000-character kept document, and a
 * storefront domain's), then, in this process, the CPU a call (user + system) of `passStart`
 * without the ledger, with it, and `batchLedger` alone (what a pass makes when the first read
 * does not carry the ledger), `--calls` calls each, twice in turn.
 */
import { parseArgs } from "node:util";
import { prepareAppEnvironment } from "../testkit/app-environment";

const { values } = parseArgs({
  options: {
    changes: { type: "string", default: "1,100" },
    calls: { type: "string", default: "30" },
  },
});
const calls = Number(values.calls);

await prepareAppEnvironment();
const prisma = (await import("../app/models/db.server")).default;
const { passStart } = await import("../app/models/live-pass.server");
const { batchLedger, recordDelivered } = await import("../app/models/ledger.server");

const SHOP = "pass-start-ledger.myshopify.com";
const own = { shopDomain: SHOP, workspaceId: "pass-start-ledger-com" };
const domain = { shopDomain: `${SHOP}#fr`, workspaceId: "pass-start-ledger-fr" };
const scopes: [typeof own, typeof own] = [own, domain];

async function cpuMsPerCall(call: () => Promise<unknown>): Promise<number> {
  const from = process.cpuUsage();
  for (let k = 0; k < calls; k++) await call();
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000 / calls;
}

console.log(`passStart's CPU a call, ${calls} calls, with ledger rows in two workspaces`);
for (const count of values.changes.split(",").map(Number)) {
  await prisma.pendingChange.deleteMany({ where: { shopDomain: SHOP } });
  await prisma.indexedItem.deleteMany({
    where: { shopDomain: { in: [own, domain].map((s) => s.shopDomain) } },
  });
  const at = Date.now() - 60_000;
  const ids = Array.from({ length: count }, (_, i) => String(1000 + i));
  await prisma.pendingChange.createMany({
    data: ids.map((productId, i) => ({
      shopDomain: SHOP,
      productId,
      change: "update",
      changedAt: new Date(at + i),
      receivedAt: new Date(at + i),
    })),
  });
  const items = ids.map((itemId) => ({
    itemId,
    contentHash: `hash-${itemId}`,
    title: `Product ${itemId}`,
    collectionIds: null,
    content: JSON.stringify({ id: itemId, body: "x".repeat(2_000) }),
  }));
  for (const scope of scopes) await recordDelivered(scope, "product", items, "bench", new Date());
  const figures: Record<string, number[]> = { without: [], with: [], alone: [] };
  for (let round = 0; round < 2; round++) {
    figures.without!.push(
      await cpuMsPerCall(() => passStart(SHOP, "2026-12", { limit: 100, except: [] })),
    );
    figures.with!.push(
      await cpuMsPerCall(() =>
        passStart(SHOP, "2026-12", { limit: 100, except: [], ledger: { scopes } }),
      ),
    );
    figures.alone!.push(await cpuMsPerCall(() => batchLedger(scopes, "product", ids, SHOP)));
  }
  const ms = (list: number[]) => list.map((v) => v.toFixed(2)).join(", ");
  console.log(
    `  ${count} change(s): passStart without the ledger ${ms(figures.without!)} ms; ` +
      `with it ${ms(figures.with!)} ms; batchLedger alone ${ms(figures.alone!)} ms`,
  );
}
await prisma.$disconnect();
