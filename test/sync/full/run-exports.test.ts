/**
 * The bulk exports a full sync asks, which the run starts and the progress bar counts ("1 of 4
 * exports ready"): the stock model's comes with the products', and the policies and metaobject
 * entries are read by queries, not exports.
 */
import { describe, expect, it } from "vitest";
import { runExportsOf } from "../../../app/sync/full/run-exports";

describe("the exports of a full sync", () => {
  it("asks the stock model's export beside the products'", () => {
    expect(runExportsOf(["product", "page", "article", "policy", "metaobject"])).toEqual([
      "product",
      "page",
      "article",
      "stock",
    ]);
  });

  it("asks no stock export when products are not synced", () => {
    expect(runExportsOf(["page", "article"])).toEqual(["page", "article"]);
  });

  it("asks nothing for policies and metaobject entries alone, or for an empty list", () => {
    expect(runExportsOf(["policy", "metaobject"])).toEqual([]);
    expect(runExportsOf("".split(","))).toEqual([]);
  });
});
