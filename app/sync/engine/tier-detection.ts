import type { IndexServiceClient } from "../../index-service/client";
import type { Tier } from "../../index-service/tiers";

export class TierUnknownError extends Error {
  constructor() {
    super(
      "The service did not say which plan this key is on (its tierLimits name no known tier); pass the tier explicitly.",
    );
    this.name = "TierUnknownError";
  }
}

/** An id nothing has: deleting it is a harmless write that proves the key may write. */
export const KEY_PROBE_ID = "__catalog_chat_key_check__";

/**
 * The one cheap authenticated call every run starts with: a bulk delete of an id nothing has in
 * the client's workspace. It proves the secret key still works and may write there (a revoked
 * key, an ended trial or an inactive subscription throws its typed error even when nothing in the
 * store changed), and names the key's tier. Nothing else (the webhook list, say) can fail a sync.
 */
export async function proveSecretKey(client: IndexServiceClient): Promise<Tier | undefined> {
  const response = await client.bulkDeleteProducts([KEY_PROBE_ID]);
  return response.tier;
}

/** The key's tier, proved by the run's first call. */
export async function detectTier(client: IndexServiceClient): Promise<Tier> {
  const tier = await proveSecretKey(client);
  if (!tier) throw new TierUnknownError();
  return tier;
}
