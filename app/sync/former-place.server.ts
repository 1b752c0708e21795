import type { Shop } from "@prisma/client";
import { config } from "../config.server";
import prisma from "../db.server";
import { IndexServiceClient } from "../index-service/client";
import { IndexServiceError } from "../index-service/errors";
import { openSecret } from "../models/secret-box.server";
import { removeWorkspaceItems } from "./live/remove-from-index.server";
import { RATE_LIMITS } from "../index-service/tiers";
import { Pacer } from "./pacer";

/**
 * The ledger belongs to one service account and workspace. After Settings saved another account's
 * key or another workspace, the next run first empties the former place with the former key (while
 * that key still works) and forgets it, so that everything is sent again into the new place. What
 * could not be removed (the old key no longer works, the service did not answer) stays there and is
 * no longer the app's: returns how many items that is.
 */
export async function leaveFormerPlace(shop: Shop): Promise<number> {
  if (!shop.formerWorkspaceId) return 0;
  const scope = { shopDomain: shop.shopDomain, workspaceId: shop.formerWorkspaceId };
  let left = await prisma.indexedItem.count({ where: scope });
  if (left > 0 && shop.formerSecretKeyCiphertext) {
    const env = config();
    const client = new IndexServiceClient({
      baseUrl: env.indexApiUrl,
      apiKey: openSecret(shop.formerSecretKeyCiphertext, env.decryptionKeys),
      workspaceId: scope.workspaceId,
    });
    // The former account's plan is not known any more: paced at the smallest plan's limits.
    const pacer = new Pacer({ limits: RATE_LIMITS.personal, maxServerRetries: 3 });
    try {
      left = await removeWorkspaceItems(scope, client, { send: (request) => pacer.send(request) });
    } catch (error) {
      if (!(error instanceof IndexServiceError)) throw error;
    }
  }
  await prisma.$transaction([
    prisma.indexedItem.deleteMany({ where: scope }),
    prisma.shop.update({
      where: { shopDomain: shop.shopDomain },
      data: { formerWorkspaceId: null, formerSecretKeyCiphertext: null },
    }),
  ]);
  return left;
}
