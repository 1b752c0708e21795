import type { ServerBuild } from "@remix-run/node";
import * as products from "../app/routes/webhooks.products";

/**
 * A Remix build holding only the products webhook route: enough for the server's webhook fast
 * path (app/server/webhook-routes.ts) to answer real deliveries without the whole production build.
 */
export function productsWebhookBuild(): ServerBuild {
  return {
    routes: {
      root: { id: "root", path: "", module: {} },
      "routes/webhooks.products": {
        id: "routes/webhooks.products",
        parentId: "root",
        path: "webhooks/products",
        module: products,
      },
    },
  } as unknown as ServerBuild;
}
