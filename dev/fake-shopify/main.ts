/**
 * Starts the fake Shopify Admin API from the command line:
 *   npx tsx dev/fake-shopify/main.ts
 * FAKE_SHOPIFY_PORT (default 4020), FAKE_SHOPIFY_HOST (127.0.0.1), FAKE_SHOPIFY_PRODUCTS (generated
 * products, default 200; 0 for none), FAKE_SHOPIFY_SEED (1), FAKE_SHOPIFY_DOCS_SHOP (default 1:
 * also load Shopify's documentation test shop; 0 leaves it out), FAKE_SHOPIFY_APP_URL, FAKE_SHOPIFY_API_SECRET,
 * FAKE_SHOPIFY_ACCESS_TOKEN, FAKE_SHOPIFY_BULK_DELAY_MS configure it.
 */
import { fileURLToPath } from "node:url";
import { numberFrom } from "../http";
import { startFakeShopify } from "./server";

const env = process.env;
const products = numberFrom("FAKE_SHOPIFY_PRODUCTS", 200);
const docsShop = fileURLToPath(new URL("../sample-store/shopify-docs-shop.jsonl", import.meta.url));

const shopify = await startFakeShopify({
  port: numberFrom("FAKE_SHOPIFY_PORT", 4020),
  host: env.FAKE_SHOPIFY_HOST ?? "127.0.0.1",
  ...(env.FAKE_SHOPIFY_ACCESS_TOKEN ? { accessToken: env.FAKE_SHOPIFY_ACCESS_TOKEN } : {}),
  ...(env.FAKE_SHOPIFY_APP_URL ? { appUrl: env.FAKE_SHOPIFY_APP_URL } : {}),
  ...(env.FAKE_SHOPIFY_API_SECRET ? { apiSecret: env.FAKE_SHOPIFY_API_SECRET } : {}),
  bulkDelayMs: numberFrom("FAKE_SHOPIFY_BULK_DELAY_MS", 200),
  store: {
    ...(env.FAKE_SHOPIFY_DOCS_SHOP === "0" ? {} : { files: [docsShop] }),
    ...(products > 0
      ? {
          generated: {
            products,
            pages: 10,
            articles: 10,
            seed: numberFrom("FAKE_SHOPIFY_SEED", 1),
          },
        }
      : {}),
  },
});

const shop = shopify.state.shop();
console.log(`Fake Shopify Admin API for ${shop.myshopifyDomain} listening on ${shopify.url}`);
console.log(`GraphQL: POST ${shopify.graphqlUrl} (X-Shopify-Access-Token)`);
console.log(`Control: ${shopify.url}/__fake`);
console.log(`Store:   ${JSON.stringify(shopify.state.snapshot().counts)}`);

let closing = false;
const shutdown = () => {
  if (closing) return;
  closing = true;
  void shopify.close().then(() => process.exit(0));
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
