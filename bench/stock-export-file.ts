import { createReadStream, createWriteStream } from "node:fs";
import { once } from "node:events";
import { createInterface } from "node:readline";

/**
 * The stock export (STOCK_MODEL_BULK_QUERY) of a generated catalogue: each variant's inventory
 * item, its variant and its stock at two locations, items and children in Shopify's order. Written
 * by the driver, as the catalogue is, so that the measured process only reads it.
 */
export async function writeStockExport(catalogue: string, path: string): Promise<void> {
  // Imported here, not above: the benches' measured children import this module too, and the
  // fake store's modules would weigh on their memory.
  const { inventoryItemGidOf, LOCATION_GID } = await import("../dev/fake-shopify/inventory");
  const out = createWriteStream(path);
  for await (const text of createInterface({ input: createReadStream(catalogue) })) {
    const line = JSON.parse(text) as {
      id?: string;
      __parentId?: string;
      inventoryQuantity?: number | null;
      inventoryPolicy?: string;
      inventoryItem?: { tracked: boolean };
    };
    if (!line.id?.includes("/ProductVariant/") || !line.__parentId) continue;
    const item = inventoryItemGidOf(line.id);
    const quantity = line.inventoryQuantity ?? 0;
    const first = Math.floor(quantity / 2);
    const lines = [
      { id: item, tracked: line.inventoryItem?.tracked ?? true },
      {
        id: line.id,
        inventoryQuantity: quantity,
        inventoryPolicy: line.inventoryPolicy ?? "DENY",
        product: { id: line.__parentId },
        __parentId: item,
      },
      { location: { id: LOCATION_GID }, quantities: [{ quantity: first }], __parentId: item },
      {
        location: { id: "gid://shopify/Location/77000000002" },
        quantities: [{ quantity: quantity - first }],
        __parentId: item,
      },
    ];
    if (!out.write(lines.map((l) => JSON.stringify(l)).join("\n") + "\n")) {
      await once(out, "drain");
    }
  }
  out.end();
  await once(out, "finish");
}
