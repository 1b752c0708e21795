/**
 * A move's run, first (run-full-sync.server.ts): Settings saved another secret key or workspace
 * (switch-keys-or-workspace.server.ts), so the shop's items leave the place the ledger describes
 * before everything is sent into the new one.
 */
import type { Shop } from "@prisma/client";
import { config } from "../../config.server";
import { IndexServiceClient } from "../../index-service/client";
import { IndexServiceError } from "../../index-service/errors";
import { rateKeyId } from "../../index-service/key-request-counts";
import { RATE_LIMITS } from "../../index-service/tiers";
import { indexedCount } from "../../models/ledger.server";
import { forgetFormerPlace } from "../../models/shops.server";
import { openSecret } from "../../secret-box.server";
import { removeWorkspaceItems } from "../../shop/remove-from-index.server";
import { Pacer } from "../engine/pacer";
import { databaseGate } from "../engine/pacer-registry.server";

/**
 * Empties the former place with the former key (while that key still works) and forgets it, so
 * that everything is sent again into the new place. What could not be removed (the old key no
 * longer works, the service did not answer) stays there and is no longer the app's: returns how
 * many items that is.
 */
export async function leaveFormerPlace(shop: Shop): Promise<number> {
  if (!shop.formerWorkspaceId) return 0;
  const scope = { shopDomain: shop.shopDomain, workspaceId: shop.formerWorkspaceId };
  let left = await indexedCount(scope);
  if (left > 0 && shop.formerSecretKeyCiphertext) {
    const env = config();
    const apiKey = openSecret(shop.formerSecretKeyCiphertext, env.decryptionKeys);
    const client = new IndexServiceClient({
      baseUrl: env.indexApiUrl,
      apiKey,
      workspaceId: scope.workspaceId,
    });
    // The former account's plan is not known any more: paced at the smallest plan's limits, in
    // the key's windows shared with every process (another shop may still use that key).
    const limits = RATE_LIMITS.personal;
    const gate = databaseGate(rateKeyId(apiKey), limits);
    const pacer = new Pacer({ limits, gate, maxServerRetries: 3 });
    try {
      left = await removeWorkspaceItems(scope, client, { send: (request) => pacer.send(request) });
    } catch (error) {
      if (!(error instanceof IndexServiceError)) throw error;
    }
  }
  await forgetFormerPlace(scope);
  return left;
}
