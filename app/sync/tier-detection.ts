import type { IndexServiceClient } from "../index-service/client";
import type { Tier } from "../index-service/tiers";

export class TierUnknownError extends Error {
  constructor() {
    super(
      "The service did not say which plan this key is on (its tierLimits name no known tier); pass the tier explicitly.",
    );
    this.name = "TierUnknownError";
  }
}

/**
 * Asks the service which tier the key is on, with a call only a secret key may make (listing the
 * key's webhooks): it also proves the key can manage the workspace.
 */
export async function detectTier(client: IndexServiceClient): Promise<Tier> {
  const response = await client.listWebhooks();
  if (!response.tier) throw new TierUnknownError();
  return response.tier;
}
