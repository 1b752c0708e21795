import type { Shop } from "@prisma/client";
import { config } from "../config.server";
import { IndexServiceClient } from "../index-service/client";
import { openSecret } from "../models/secret-box.server";
import { workspaceOf } from "../models/shops.server";

export class ShopNotConnectedError extends Error {
  constructor(shopDomain: string) {
    super(`${shopDomain} has no secret key for the search service yet: save one in Settings.`);
    this.name = "ShopNotConnectedError";
  }
}

/** The service's client for a shop: its decrypted secret key, scoped to its workspace. */
export function serviceClientFor(shop: Shop): IndexServiceClient {
  const workspaceId = workspaceOf(shop);
  if (!shop.secretKeyCiphertext || !workspaceId) throw new ShopNotConnectedError(shop.shopDomain);
  const env = config();
  return new IndexServiceClient({
    baseUrl: env.indexApiUrl,
    apiKey: openSecret(shop.secretKeyCiphertext, env.decryptionKeys),
    workspaceId,
  });
}
