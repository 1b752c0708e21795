/**
 * The product count the service reports after each write (`usage.quota`) is kept for the quota
 * the merchant sees in the admin. A live change that leaves the count as the database holds it
 * (an update) writes nothing; one that changes it (a new product) writes the new count.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  ACCOUNT,
  indexableProduct,
  installShop,
  numericId,
  SHOP,
  startLiveEnvironment,
  startTestWorker,
  waitFor,
  waitForEmptyOutbox,
  WORKSPACE,
  type LiveEnvironment,
} from "../../../testkit/live-stack";
import { quotaMonthOf } from "../../../app/index-service/tiers";

let env: LiveEnvironment;
let worker: Awaited<ReturnType<typeof startTestWorker>> | undefined;

beforeAll(async () => {
  env = await startLiveEnvironment({ products: 12 });
  await installShop(env);
}, 120_000);

afterEach(async () => {
  await worker?.stop();
  worker = undefined;
});

afterAll(async () => {
  await env?.close();
});

const productQuotaRow = () =>
  env.prisma.quotaUsage.findUniqueOrThrow({
    where: {
      shopDomain_month_kind: { shopDomain: SHOP, month: quotaMonthOf(new Date()), kind: "product" },
    },
  });
const indexedNames = () =>
  (env.emulator.state.workspace(ACCOUNT, WORKSPACE)?.products ?? []).map((p) => p.name);

describe("the reported product count", () => {
  it("is written when a live change moves it, and not written again when it stays", async () => {
    const afterSync = await productQuotaRow();
    expect(afterSync.used).toBe(indexedNames().length);
    worker = await startTestWorker();

    env.shopify.state.createProduct(
      { title: "New arrival", variants: [{ price: "5.00", inventoryQuantity: 1 }] },
      { webhook: true },
    );
    await env.shopify.state.settled();
    await waitFor("the new product in the index", () => indexedNames().includes("New arrival"));
    await waitForEmptyOutbox(env);
    const afterNew = await productQuotaRow();
    expect(afterNew.used).toBe(afterSync.used + 1);
    expect(afterNew.updatedAt.getTime()).toBeGreaterThan(afterSync.updatedAt.getTime());

    const product = indexableProduct(env, 0);
    env.shopify.state.updateProduct(product.id, { title: "Renamed" }, { webhook: true });
    await env.shopify.state.settled();
    await waitFor("the update in the index", () =>
      (env.emulator.state.workspace(ACCOUNT, WORKSPACE)?.products ?? []).some(
        (p) => p.id === numericId(product.id) && p.name === "Renamed",
      ),
    );
    await waitForEmptyOutbox(env);
    const afterUpdate = await productQuotaRow();
    expect(afterUpdate.used).toBe(afterNew.used);
    expect(afterUpdate.updatedAt).toEqual(afterNew.updatedAt);
  });
});
