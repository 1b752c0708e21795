/**
 * Which ledger a live pass reads with its first statement (decision 0062): the workspaces the
 * shop's last batch went to, its own first, and only after a small batch (each row of that
 * statement carries the shop's columns, which for a batch of 100 costs more than a statement).
 */
import { describe, expect, it } from "vitest";
import { LEDGER_WITH_PASS_START_MAX, ShopMemory } from "../../../app/sync/live/worker-context";

const SHOP = "ledger-memory.myshopify.com";
const own = { shopDomain: SHOP, workspaceId: "ledger-memory-com" };
const domain = { shopDomain: `${SHOP}#fr`, workspaceId: "ledger-memory-fr" };
const memory = () => new ShopMemory({ baseMs: 1_000, maxMs: 60_000 }, () => new Date());

describe("the ledger scopes a pass reads with the shop", () => {
  it("are none before the shop's first batch", () => {
    expect(memory().ledgerScopesOf(SHOP)).toBeUndefined();
  });

  it("are where the last small batch went, the shop's own first, without its lease", () => {
    const kept = memory();
    const fence = { shopDomain: SHOP, token: "t" } as never;
    kept.noteLedgerScopes(
      SHOP,
      [
        { ...own, fence },
        { ...domain, fence },
      ],
      1,
    );
    expect(kept.ledgerScopesOf(SHOP)).toEqual([own, domain]);
    kept.noteLedgerScopes(SHOP, [own], LEDGER_WITH_PASS_START_MAX);
    expect(kept.ledgerScopesOf(SHOP)).toEqual([own]);
    expect(kept.ledgerScopesOf("other.myshopify.com")).toBeUndefined();
  });

  it("are none after a bigger batch, and again after a small one", () => {
    const kept = memory();
    kept.noteLedgerScopes(SHOP, [own], LEDGER_WITH_PASS_START_MAX + 1);
    expect(kept.ledgerScopesOf(SHOP)).toBeUndefined();
    kept.noteLedgerScopes(SHOP, [own], 2);
    expect(kept.ledgerScopesOf(SHOP)).toEqual([own]);
    kept.forget(SHOP);
    expect(kept.ledgerScopesOf(SHOP)).toBeUndefined();
  });
});
