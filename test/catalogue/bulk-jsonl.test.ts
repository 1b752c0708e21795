import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BulkJsonlSyntaxError,
  readBulkExport,
  scanBulkExport,
} from "../../app/catalogue/bulk-jsonl";
import {
  BulkDownloadError,
  downloadBulkExport,
  fileSource,
  urlSource,
} from "../../app/shopify/bulk-source";
import type { ShopifyProduct } from "../../app/catalogue/shopify-types";
import { catalogueLines } from "../../dev/sample-store/catalogue-generator";
import { Prng } from "../../dev/sample-store/prng";
import { byId, bytesSource, chunkedSource, collect, FIXTURES, naiveAssembly } from "./helpers";

const EXAMPLE = join(FIXTURES, "bulk-products-variants-example.jsonl");

function generated(products: number, options: { lateChildRate?: number; seed?: number } = {}) {
  return [
    ...catalogueLines({ products, pages: 5, articles: 5, seed: options.seed ?? 3, ...options }),
  ]
    .map((line) => `${line}\n`)
    .join("");
}

function variantIds(product: unknown): string[] {
  return (product as ShopifyProduct).variants.map((variant) => variant.id);
}

describe("Shopify's example export (a child line arriving after later products)", () => {
  it("puts the late variant on its own product", async () => {
    const { items, scan } = await collect(fileSource(EXAMPLE));
    const products = byId(items);
    expect(items.map((item) => item.type)).toEqual(Array(5).fill("Product"));
    expect(variantIds(products.get("gid://shopify/Product/1921569226808"))).toEqual([
      "gid://shopify/ProductVariant/19435458986040",
      "gid://shopify/ProductVariant/19435458986123",
    ]);
    for (const id of [
      "gid://shopify/Product/1921569259576",
      "gid://shopify/Product/1921569292344",
      "gid://shopify/Product/1921569325112",
      "gid://shopify/Product/1921569357880",
    ]) {
      expect(variantIds(products.get(id))).toHaveLength(1);
    }
    expect(scan.lines).toBe(11);
    expect(scan.objects).toEqual({ Product: 5, ProductVariant: 6 });
    expect([...scan.lateParents]).toEqual([["gid://shopify/Product/1921569226808", 11]]);
  });

  it("emits each product once complete: the late one right after its last line", async () => {
    const { items } = await collect(fileSource(EXAMPLE));
    expect(items.map((item) => item.value.id.split("/").pop())).toEqual([
      "1921569259576",
      "1921569292344",
      "1921569325112",
      "1921569226808",
      // The last product is complete only when the file ends.
      "1921569357880",
    ]);
  });
});

describe("streaming assembly", () => {
  const text = generated(300, { lateChildRate: 0.1 });
  const expected = naiveAssembly(text);

  it("agrees with a whole-file assembly on a generated catalogue", async () => {
    const { items, stats } = await collect(bytesSource(text));
    expect(items).toHaveLength(expected.size);
    expect(byId(items)).toEqual(expected);
    expect(stats.orphans).toBe(0);
    expect(stats.reads).toBe(1);
  });

  it("holds only the late parents in memory, not the catalogue", async () => {
    const { stats, scan } = await collect(bytesSource(text));
    expect(scan.lateParents.size).toBeGreaterThan(5);
    expect(stats.maxHeld).toBeLessThanOrEqual(scan.lateParents.size);
    expect(stats.maxHeld).toBeLessThan(30);
  });

  it.each([1, 2, 3, 5, 7, 64, 4096])(
    "gives the same result whatever the chunk size (%i bytes)",
    async (size) => {
      const { items } = await collect(
        chunkedSource(text.slice(0, 60_000).replace(/[^\n]*$/, ""), size),
      );
      expect(byId(items)).toEqual(naiveAssembly(text.slice(0, 60_000).replace(/[^\n]*$/, "")));
    },
  );

  it("gives the same result with chunks cut at random bytes, inside UTF-8 characters too", async () => {
    const bytes = Buffer.from(text, "utf8");
    const rng = new Prng("cuts");
    const cuts = Array.from({ length: 400 }, () => rng.int(1, bytes.length - 1));
    const { items } = await collect(bytesSource(bytes, cuts));
    expect(byId(items)).toEqual(expected);
    const titles = items.flatMap((item) => (item.type === "Product" ? [item.value.title] : []));
    expect(titles).toContain("抹茶 茶碗 (手作り)");
  });

  it("accepts CRLF line ends, blank lines and a last line without a line end", async () => {
    const crlf = text.replace(/\n/g, "\r\n").replace(/\r\n$/, "");
    const withBlanks = crlf.replace(/\r\n/, "\r\n\r\n  \r\n");
    const { items } = await collect(bytesSource(withBlanks));
    expect(byId(items)).toEqual(expected);
  });

  it("stays correct when late parents exceed the memory budget (extra reads)", async () => {
    const late = generated(200, { lateChildRate: 0.6, seed: 9 });
    const { items, stats, scan } = await collect(bytesSource(late), 3);
    expect(scan.lateParents.size).toBeGreaterThan(50);
    expect(stats.maxHeld).toBeLessThanOrEqual(3);
    expect(stats.reads).toBeGreaterThan(1);
    expect(byId(items)).toEqual(naiveAssembly(late));
  });

  it("copes with a fully ungrouped file (every child after every parent) within the budget", async () => {
    const lines = generated(120, { seed: 4 }).trimEnd().split("\n");
    const ungrouped = [
      ...lines.filter((line) => !line.includes('"__parentId"')),
      ...lines.filter((line) => line.includes('"__parentId"')),
    ].join("\n");
    const { items, stats } = await collect(bytesSource(ungrouped), 25);
    expect(stats.maxHeld).toBeLessThanOrEqual(25);
    expect(byId(items)).toEqual(naiveAssembly(ungrouped));
  });

  it("can stream the same export again", async () => {
    const bulk = await readBulkExport(bytesSource(text));
    let first = 0;
    for await (const _ of bulk.items()) first += 1;
    let second = 0;
    for await (const _ of bulk.items()) second += 1;
    expect(second).toBe(first);
    expect(bulk.stats.emitted.Product).toBe(300);
  });

  it("counts objects by type before anything is sent", async () => {
    const scan = await scanBulkExport(bytesSource(text));
    expect(scan.items).toEqual({ Product: 300, Page: 5, Article: 5, ShopPolicy: 0, Metaobject: 0 });
    expect(scan.objects.ProductVariant).toBeGreaterThan(300);
    expect(scan.skippedUnknown).toBe(0);
  });
});

describe("unknown and stray lines", () => {
  const lines = [
    '{"id":"gid://shopify/Product/1","title":"Kept"}',
    '{"id":"gid://shopify/Metafield/9","key":"colour","__parentId":"gid://shopify/Product/1"}',
    '{"id":"gid://shopify/ProductVariant/11","price":"1.00","__parentId":"gid://shopify/Product/1"}',
    '{"id":"gid://shopify/Order/2","name":"#1001"}',
    '{"id":"gid://shopify/LineItem/21","__parentId":"gid://shopify/Order/2"}',
    '{"id":"gid://shopify/InventoryLevel/5","__parentId":"gid://shopify/ProductVariant/11"}',
    '{"id":"gid://shopify/Page/3","title":"About"}',
    '{"id":"gid://shopify/ProductVariant/99","__parentId":"gid://shopify/Product/404"}',
  ];

  it("skips unknown types and counts them", async () => {
    const { items, scan, stats } = await collect(bytesSource(lines.join("\n")));
    expect(items.map((item) => `${item.type}:${item.value.id}`)).toEqual([
      "Product:gid://shopify/Product/1",
      "Page:gid://shopify/Page/3",
    ]);
    const product = items[0]?.value as ShopifyProduct;
    expect(product.variants.map((variant) => variant.id)).toEqual([
      "gid://shopify/ProductVariant/11",
    ]);
    expect(product).not.toHaveProperty("__parentId");
    // The metafield, the order, its line item and the inventory level.
    expect(scan.skippedUnknown).toBe(4);
    expect(scan.objects).toMatchObject({ Order: 1, LineItem: 1, Metafield: 1 });
    expect(stats.orphans).toBe(1);
  });
});

describe("malformed files", () => {
  const good = '{"id":"gid://shopify/Product/1"}';

  it("names the line of malformed JSON, before emitting anything", async () => {
    const text = [good, good.replace("1", "2"), '{"id":"gid://shopify/Product/3"', good].join("\n");
    await expect(readBulkExport(bytesSource(text))).rejects.toMatchObject({
      name: "BulkJsonlSyntaxError",
      line: 3,
    });
  });

  it("counts blank lines in the line number and refuses JSON that is not an object", async () => {
    const text = [good, "", "[1,2]"].join("\n");
    const error = await readBulkExport(bytesSource(text)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BulkJsonlSyntaxError);
    expect((error as BulkJsonlSyntaxError).line).toBe(3);
    expect((error as Error).message).toMatch(/^Line 3 /);
  });

  it("refuses a download cut in the middle of the last line", async () => {
    const text = generated(20);
    const cut = text.slice(0, text.length - 40);
    const error = await readBulkExport(bytesSource(cut)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BulkJsonlSyntaxError);
    expect((error as BulkJsonlSyntaxError).line).toBe(cut.split("\n").length);
  });
});

describe("reading the export from Shopify's result URL", () => {
  let server: Server;
  let base = "";
  let requests = 0;

  beforeAll(async () => {
    const body = readFileSync(EXAMPLE);
    server = createServer((request, response) => {
      requests += 1;
      if (request.url === "/result.jsonl") {
        response.writeHead(200, { "content-type": "application/jsonl" });
        response.end(body);
      } else {
        response.writeHead(403);
        response.end("expired");
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it("streams it twice (scan, then assembly)", async () => {
    requests = 0;
    const { items } = await collect(urlSource(`${base}/result.jsonl`));
    expect(items).toHaveLength(5);
    expect(requests).toBe(2);
  });

  it("downloads it once to a file, to read from there", async () => {
    const directory = mkdtempSync(join(tmpdir(), "bulk-download-"));
    try {
      const path = join(directory, "export.jsonl");
      await downloadBulkExport(`${base}/result.jsonl`, path);
      expect(readFileSync(path)).toEqual(readFileSync(EXAMPLE));
      await expect(downloadBulkExport(`${base}/gone.jsonl`, path)).rejects.toMatchObject({
        status: 403,
      });
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it("reports an expired or refused URL", async () => {
    await expect(readBulkExport(urlSource(`${base}/expired.jsonl`))).rejects.toBeInstanceOf(
      BulkDownloadError,
    );
  });
});
