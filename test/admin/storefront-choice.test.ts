import { describe, expect, it } from "vitest";
import {
  excludedDomains,
  pageOfDomains,
  parseDomainChoice,
  planDomainChoice,
  type DomainChoiceRow,
} from "../../app/admin/storefront-choice";

const rows: DomainChoiceRow[] = [
  { domain: "shop.example", primary: true, productCount: 500, estimated: false, filled: true },
  { domain: "fr.shop.example", primary: false, productCount: 300, estimated: true, filled: false },
  { domain: "de.shop.example", primary: false, productCount: 200, estimated: true, filled: false },
  { domain: "uk.shop.example", primary: false, productCount: 400, estimated: false, filled: true },
];

describe("planDomainChoice", () => {
  it("counts only domains ticked and not yet filled, the primary never", () => {
    const plan = planDomainChoice(
      rows,
      new Set(["shop.example", "fr.shop.example", "uk.shop.example"]),
      1000,
    );
    expect(plan.costs).toEqual([{ domain: "fr.shop.example", adds: 300, overQuota: 0 }]);
    expect(plan).toMatchObject({
      added: 300,
      overQuota: 0,
      remainingBefore: 1000,
      remainingAfter: 700,
    });
  });

  it("unticking a domain not filled removes its cost", () => {
    const plan = planDomainChoice(rows, new Set(["shop.example"]), 1000);
    expect(plan).toMatchObject({ added: 0, overQuota: 0, remainingAfter: 1000, costs: [] });
  });

  it("never plans beyond the quota: the rest is over quota, in list order", () => {
    const plan = planDomainChoice(rows, new Set(["fr.shop.example", "de.shop.example"]), 350);
    expect(plan.costs).toEqual([
      { domain: "fr.shop.example", adds: 300, overQuota: 0 },
      { domain: "de.shop.example", adds: 50, overQuota: 150 },
    ]);
    expect(plan).toMatchObject({ added: 350, overQuota: 150, remainingAfter: 0 });
  });

  it("with the quota used up (or overdrawn) everything chosen is over quota", () => {
    const plan = planDomainChoice(rows, new Set(["fr.shop.example"]), -20);
    expect(plan).toMatchObject({ added: 0, overQuota: 300, remainingBefore: 0, remainingAfter: 0 });
  });
});

describe("parseDomainChoice", () => {
  it("keeps the primary, ignores names the shop does not have", () => {
    const parsed = parseDomainChoice(rows, [
      "fr.shop.example",
      "other-shop.example",
      "other-shop.example",
    ]);
    expect([...parsed.chosen].sort()).toEqual(["fr.shop.example", "shop.example"]);
    expect(parsed.ignored).toEqual(["other-shop.example"]);
    expect(excludedDomains(rows, parsed.chosen)).toEqual(["de.shop.example", "uk.shop.example"]);
  });
});

describe("pageOfDomains", () => {
  it("keeps thousands of presences to a page with the total", () => {
    const many = Array.from({ length: 3001 }, (_, i) => i);
    const page = pageOfDomains(many, 31, 100);
    expect(page).toMatchObject({ page: 31, pages: 31, total: 3001 });
    expect(page.rows).toEqual([3000]);
    expect(pageOfDomains(many, 0, 100).page).toBe(1);
    expect(pageOfDomains([], 5, 100)).toMatchObject({ page: 1, pages: 1, total: 0, rows: [] });
  });
});
