/**
 * The example alert rules (docs/operations/alerts.yml) and the Grafana dashboard
 * (docs/operations/grafana-dashboard.json) name only metrics the app exports (app/server/metrics.ts),
 * so a renamed metric fails here instead of silently never alerting.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { beforeAll, describe, expect, it } from "vitest";
import { prepareAppEnvironment } from "../../testkit/app-environment";

const DOCS = join(import.meta.dirname, "..", "..", "docs", "operations");
let exported: Set<string>;
/** The metrics text of a process whose METRICS_SHOP_LABELS names a shop. */
let scraped: string;
const WATCHED = "watched-shop.myshopify.com";

beforeAll(async () => {
  await prepareAppEnvironment({ BACKGROUND_WORK: "off", METRICS_SHOP_LABELS: WATCHED });
  const { appMetrics, scrapeMetrics } = await import("../../app/server/metrics");
  // A listed shop's figures, and another's, as the running app counts them.
  appMetrics().countItems(WATCHED, "product", "sent", 2);
  appMetrics().countItems("other-shop.myshopify.com", "product", "sent", 1);
  const { text } = await scrapeMetrics();
  scraped = text;
  exported = new Set();
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    exported.add(name!);
    if (type === "histogram")
      for (const end of ["_bucket", "_sum", "_count"]) exported.add(name! + end);
  }
}, 60_000);

const KEYWORDS = new Set([
  "and",
  "or",
  "unless",
  "by",
  "without",
  "on",
  "ignoring",
  "bool",
  "offset",
]);

/** The metric names a PromQL expression reads (functions, labels, strings and ranges left out). */
function metricsNamed(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, "")
    .replace(/\{[^}]*\}/g, "")
    .replace(/\[[^\]]*\]/g, "")
    .replace(/\b(by|without|on|ignoring)\s*\([^)]*\)/g, "");
  return [...bare.matchAll(/([a-zA-Z_:][\w:]*)\s*(\()?/g)]
    .filter(([, name, call]) => !call && !KEYWORDS.has(name!))
    .map(([, name]) => name!);
}

describe("reading metric names out of PromQL", () => {
  it("finds the metrics and leaves out functions, labels and keywords", () => {
    expect(
      metricsNamed('sum by (le) (rate(a_total{x="y"}[5m])) > 0 and on(job) absent(b_seconds)'),
    ).toEqual(["a_total", "b_seconds"]);
  });
});

describe("docs/operations/alerts.yml", () => {
  const rules = () => {
    const file = parseYaml(readFileSync(join(DOCS, "alerts.yml"), "utf8")) as {
      groups: { name: string; rules: { alert: string; expr: string; for?: string }[] }[];
    };
    return file.groups.flatMap((group) => group.rules);
  };

  it("has the alerts the operations page promises", () => {
    expect(rules().map((rule) => rule.alert)).toEqual(
      expect.arrayContaining([
        "CatalogChatIndexLagging",
        "CatalogChatRateLimitStorm",
        "CatalogChatNoLiveWorker",
        "CatalogChatNotificationMailFailing",
        "CatalogChatFullSyncsFailing",
      ]),
    );
  });

  it("names in each rule only metrics the app exports", () => {
    for (const rule of rules()) {
      const named = metricsNamed(rule.expr);
      expect(named.length, rule.alert).toBeGreaterThan(0);
      for (const name of named) expect(exported, `${rule.alert}: ${name}`).toContain(name);
    }
  });

  it("alerts on index lag over 2 minutes", () => {
    const lag = rules().find((rule) => rule.alert === "CatalogChatIndexLagging")!;
    expect(lag.expr).toMatch(/catalog_chat_outbox_oldest_change_age_seconds\)? > 120\b/);
  });
});

describe("docs/operations/grafana-dashboard.json", () => {
  it("queries only metrics the app exports, in every panel", () => {
    const dashboard = JSON.parse(readFileSync(join(DOCS, "grafana-dashboard.json"), "utf8")) as {
      title: string;
      panels: { title: string; targets: { expr: string }[] }[];
    };
    expect(dashboard.panels.length).toBeGreaterThan(0);
    const shown = new Set<string>();
    for (const panel of dashboard.panels) {
      expect(panel.targets.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets) {
        const named = metricsNamed(target.expr);
        expect(named.length, panel.title).toBeGreaterThan(0);
        for (const name of named) {
          expect(exported, `${panel.title}: ${name}`).toContain(name);
          shown.add(name.replace(/_(bucket|sum|count)$/, ""));
        }
      }
    }
    // Every metric of the app's own is on the dashboard.
    const own = [...exported].filter(
      (name) => name.startsWith("catalog_chat_") && !/_(bucket|sum|count)$/.test(name),
    );
    for (const name of own) expect(shown, name).toContain(name);
  });
});

describe("with METRICS_SHOP_LABELS set", () => {
  const exprs = (): { where: string; expr: string }[] => {
    const file = parseYaml(readFileSync(join(DOCS, "alerts.yml"), "utf8")) as {
      groups: { rules: { alert: string; expr: string }[] }[];
    };
    const dashboard = JSON.parse(readFileSync(join(DOCS, "grafana-dashboard.json"), "utf8")) as {
      panels: { title: string; targets: { expr: string }[] }[];
    };
    return [
      ...file.groups.flatMap((g) => g.rules.map((r) => ({ where: r.alert, expr: r.expr }))),
      ...dashboard.panels.flatMap((p) => p.targets.map((t) => ({ where: p.title, expr: t.expr }))),
    ];
  };

  it("the series the alert rules and the dashboard's other panels read keep their labels: no shop label", () => {
    expect(scraped).toMatch(/^catalog_chat_items_total\{kind="product",outcome="sent"\} 3$/m);
    expect(scraped).toContain(
      `catalog_chat_items_by_shop_total{shop="${WATCHED}",kind="product",outcome="sent"} 2`,
    );
    expect(scraped).not.toContain("other-shop");
    const shopLabelled = new Set<string>();
    for (const [, name] of scraped.matchAll(/^(\w+)\{[^}]*\bshop="/gm)) shopLabelled.add(name!);
    expect([...shopLabelled].every((name) => name.includes("_by_shop"))).toBe(true);
    for (const { where, expr } of exprs()) {
      const named = metricsNamed(expr);
      if (named.some((name) => name.includes("_by_shop"))) continue;
      for (const name of named) expect(shopLabelled.has(name), `${where}: ${name}`).toBe(false);
      expect(expr, where).not.toMatch(/\bshop\b/);
    }
  });

  it("the dashboard shows each _by_shop series by shop", () => {
    const byShop = exprs().filter(({ expr }) =>
      metricsNamed(expr).some((n) => n.includes("_by_shop")),
    );
    expect(byShop.length).toBeGreaterThan(0);
    for (const { where, expr } of byShop) expect(expr, where).toMatch(/by \(shop\b/);
  });
});
