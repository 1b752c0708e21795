/**
 * METRICS_SHOP_LABELS read from the configuration, as a process reads it: the installed shop is
 * listed, and the full sync it runs at install counts in /metrics by shop (its outcome, the
 * products and posts it sent) as well as in the series without a shop label.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  installShop,
  SHOP,
  startLiveEnvironment,
  waitFor,
  type LiveEnvironment,
} from "../../testkit/live-stack";
import { parsePrometheusText, sumOf } from "../../testkit/prometheus-text";
import { scrapeMetrics } from "../../app/server/metrics";

let env: LiveEnvironment;

beforeAll(async () => {
  env = await startLiveEnvironment({
    products: 6,
    appEnvironment: { METRICS_SHOP_LABELS: `${SHOP},another-shop.myshopify.com` },
  });
  await installShop(env);
}, 120_000);

afterAll(async () => {
  await env?.close();
});

describe("a listed shop's full sync in /metrics", () => {
  it("counts by shop the run's outcome and the items it sent, and the totals the same", async () => {
    const succeeded = { outcome: "succeeded" };
    // The run counts as it is given up, a moment after its row says it finished.
    const scrape = async () => parsePrometheusText((await scrapeMetrics()).text);
    await waitFor(
      "the finished run to count in /metrics",
      async () => sumOf(await scrape(), "catalog_chat_full_syncs_total", succeeded) > 0,
    );
    const samples = await scrape();
    expect(sumOf(samples, "catalog_chat_full_syncs_total", succeeded)).toBe(1);
    expect(
      sumOf(samples, "catalog_chat_full_syncs_by_shop_total", { shop: SHOP, ...succeeded }),
    ).toBe(1);
    for (const kind of ["product", "post"]) {
      const sent = sumOf(samples, "catalog_chat_items_total", { kind, outcome: "sent" });
      expect(sent, kind).toBeGreaterThan(0);
      expect(
        sumOf(samples, "catalog_chat_items_by_shop_total", { shop: SHOP, kind, outcome: "sent" }),
        kind,
      ).toBe(sent);
    }
    // The other listed shop has no outbox: its gauges are there, at 0.
    expect(
      sumOf(samples, "catalog_chat_outbox_changes_by_shop", {
        shop: "another-shop.myshopify.com",
        state: "waiting",
      }),
    ).toBe(0);
    expect(
      samples.some(
        (s) =>
          s.name === "catalog_chat_outbox_oldest_change_age_by_shop_seconds" &&
          s.labels.shop === SHOP,
      ),
    ).toBe(true);
  });
});
