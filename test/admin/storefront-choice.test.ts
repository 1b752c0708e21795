import { describe, expect, it } from "vitest";
import {
  choiceElsewhere,
  elsewhereWithPending,
  pageOfDomains,
  planDomainChoice,
  savePageChoice,
  type DomainChoiceRow,
  type PendingTick,
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

describe("savePageChoice", () => {
  it("keeps the primary, ignores names the shop does not have", () => {
    const saved = savePageChoice(
      rows,
      ["fr.shop.example", "de.shop.example", "uk.shop.example"],
      ["shop.example", "fr.shop.example", "other-shop.example", "other-shop.example"],
      [],
    );
    expect(saved.unticked).toEqual(["de.shop.example", "uk.shop.example"]);
    expect(saved.ignored).toEqual(["other-shop.example"]);
    expect(saved.notShown).toEqual([]);
  });

  it("changes only the domains the page showed: another page's unticked stay, its ticked stay", () => {
    // Page 2 shows de and uk; fr (page 1) was unticked before and uk is unticked now.
    const saved = savePageChoice(
      rows,
      ["de.shop.example", "uk.shop.example"],
      ["de.shop.example"],
      ["fr.shop.example", "de.shop.example"],
    );
    expect(saved.unticked).toEqual(["fr.shop.example", "uk.shop.example"]);
    expect(saved.ignored).toEqual([]);
  });

  it("a ticked domain the page did not show (a forged or stale form) changes nothing and is named", () => {
    const saved = savePageChoice(
      rows,
      ["de.shop.example"],
      ["de.shop.example", "fr.shop.example"],
      ["fr.shop.example"],
    );
    expect(saved.unticked).toEqual(["fr.shop.example"]);
    expect(saved.notShown).toEqual(["fr.shop.example"]);
  });

  it("a form that showed nothing changes nothing; an unticked domain Shopify no longer lists stays", () => {
    expect(savePageChoice(rows, [], [], ["de.shop.example", "gone.shop.example"]).unticked).toEqual(
      ["de.shop.example", "gone.shop.example"],
    );
  });
});

describe("a long list's cost, a page at a time", () => {
  const many: DomainChoiceRow[] = [
    { domain: "shop.example", primary: true, productCount: 100, estimated: false, filled: true },
    ...Array.from({ length: 3000 }, (_, i) => ({
      domain: `d${i}.shop.example`,
      primary: false,
      productCount: 10,
      estimated: true,
      filled: i % 2 === 1,
    })),
  ];

  it("plans the other pages' ticked domains around the page's, in list order, to the same totals as the whole list", () => {
    const unticked = new Set(["d0.shop.example", "d60.shop.example"]);
    const shown = new Set(many.slice(51, 101).map((row) => row.domain));
    const elsewhere = choiceElsewhere(many, unticked, shown);
    // Unfilled (even) domains before the page: d2…d48, d0 unticked → 24; after: d100…d2998 → 1450.
    expect(elsewhere.before).toEqual({ domains: 24, wanted: 240 });
    expect(elsewhere.after).toEqual({ domains: 1450, wanted: 14_500 });
    const chosen = new Set(
      many.filter((row) => !unticked.has(row.domain)).map((row) => row.domain),
    );
    const page = many.filter((row) => row.primary || shown.has(row.domain));
    const paged = planDomainChoice(page, chosen, 5_000, elsewhere);
    const whole = planDomainChoice(many, chosen, 5_000);
    expect(paged).toMatchObject({
      added: whole.added,
      overQuota: whole.overQuota,
      remainingAfter: whole.remainingAfter,
    });
    // Only the page's domains are named; the others are one figure.
    expect(paged.costs.map((cost) => cost.domain)).toEqual(
      [...shown].filter((d) => Number(d.slice(1, d.indexOf("."))) % 2 === 0 && !unticked.has(d)),
    );
    expect(paged.elsewhere).toMatchObject({ domains: 24 + 1450 });
    expect(paged.elsewhere.adds + paged.costs.reduce((sum, c) => sum + c.adds, 0)).toBe(5_000);
  });

  it("unticking a domain on the page lowers the total, the other pages' part unchanged", () => {
    const shown = new Set(["d2.shop.example", "d4.shop.example"]);
    const elsewhere = choiceElsewhere(many, new Set(), shown);
    const page = many.filter((row) => row.primary || shown.has(row.domain));
    const both = planDomainChoice(page, shown, 1_000_000, elsewhere);
    const one = planDomainChoice(page, new Set(["d2.shop.example"]), 1_000_000, elsewhere);
    expect(both.added - one.added).toBe(10);
    expect(one.elsewhere).toEqual(both.elsewhere);
  });
  it("unsaved changes on other pages count as the whole list would: a domain unticked before the page, one ticked after it", () => {
    // Saved: d0 and d200 unticked. Unsaved: d2 (page 1) unticked, d200 (page 5) ticked again,
    // d3 (filled, page 1) unticked: a filled domain costs nothing either way.
    const saved = new Set(["d0.shop.example", "d200.shop.example"]);
    const shown = new Set(many.slice(51, 101).map((row) => row.domain));
    const row = (i: number) => many[i + 1]!;
    const pending: PendingTick[] = [
      { row: row(2), ticked: false, page: 1 },
      { row: row(3), ticked: false, page: 1 },
      { row: row(200), ticked: true, page: 5 },
      { row: row(52), ticked: false, page: 2 },
    ];
    const adjusted = elsewhereWithPending(choiceElsewhere(many, saved, shown), pending, 2, shown);
    const wanted = new Set([...saved, "d2.shop.example", "d3.shop.example"]);
    wanted.delete("d200.shop.example");
    expect(adjusted).toEqual(choiceElsewhere(many, wanted, shown));
    expect(adjusted.before.domains).toBe(23);
  });

  it("a change made on page 2 whose domain the list now shows on page 1 (domains removed in Shopify) counts with page 1's", () => {
    // d60 was unticked on page 2; five domains went away and page 1 now shows d60.
    const shownOnPage1 = new Set([
      ...many.slice(1, 50).map((row) => row.domain),
      "d60.shop.example",
    ]);
    const elsewhere = choiceElsewhere(many, new Set(), shownOnPage1);
    const pending: PendingTick[] = [{ row: many[61]!, ticked: false, page: 2 }];
    expect(elsewhereWithPending(elsewhere, pending, 1, shownOnPage1)).toEqual(elsewhere);
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
