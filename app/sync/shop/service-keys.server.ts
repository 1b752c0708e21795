import type { Shop } from "@prisma/client";
import { config } from "../../config.server";
import { IndexServiceClient } from "../../index-service/client";
import {
  ForbiddenError,
  IndexServiceError,
  NetworkError,
  SubscriptionInactiveError,
  TrialExpiredError,
  UnauthorizedError,
} from "../../index-service/errors";
import { PUBLISHABLE_KEY_PREFIX, SECRET_KEY_PREFIX } from "../../index-service/protocol";
import type { Tier } from "../../index-service/tiers";
import { rateKeyId } from "../../models/rate-window";
import { openSecret } from "../../models/secret-box.server";
import { workspaceOf } from "../../models/shops.server";
import { proveSecretKey } from "../engine/tier-detection";

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

/**
 * The shop's secret key as the shared rate windows name it (a hash of it, see `rateKeyId`), or
 * undefined when no key is saved: the key's pacing is then this process's own.
 */
export function serviceKeyIdOf(shop: Pick<Shop, "secretKeyCiphertext">): string | undefined {
  if (!shop.secretKeyCiphertext) return undefined;
  return rateKeyId(openSecret(shop.secretKeyCiphertext, config().decryptionKeys));
}

export interface KeyProblem {
  field: "secretKey" | "publishableKey";
  message: string;
  url?: string;
}

export type KeyCheck = { ok: true; tier: Tier } | { ok: false; problems: KeyProblem[] };

/**
 * Checks both keys against the service before they are saved: the secret key must be allowed to
 * write to the workspace (a bulk delete of an id nothing has) and name the tier; the publishable
 * key must be a publishable key (refused a server-only call with 403, not 401 and not allowed).
 */
export async function checkServiceKeys(input: {
  baseUrl: string;
  workspaceId: string;
  secretKey: string;
  publishableKey: string;
}): Promise<KeyCheck> {
  const problems: KeyProblem[] = [];
  const secretKey = input.secretKey.trim();
  const publishableKey = input.publishableKey.trim();
  let tier: Tier | undefined;
  const clientWith = (apiKey: string) =>
    new IndexServiceClient({ baseUrl: input.baseUrl, apiKey, workspaceId: input.workspaceId });

  const secretShape = shapeProblem("secretKey", secretKey);
  if (secretShape) problems.push(secretShape);
  else {
    const client = clientWith(secretKey);
    try {
      tier = await proveSecretKey(client);
      if (!tier)
        problems.push({
          field: "secretKey",
          message:
            "The service accepted the key but did not say which plan it is on. Contact the service's support.",
        });
    } catch (error) {
      problems.push(secretKeyProblem(error, input.baseUrl));
    }
  }

  const publishableShape = shapeProblem("publishableKey", publishableKey);
  if (publishableShape) problems.push(publishableShape);
  else {
    const client = clientWith(publishableKey);
    try {
      await client.listWebhooks();
      problems.push({
        field: "publishableKey",
        message:
          "This key can manage your account, so it is a secret key: never put it on the storefront. Enter the publishable key (svc_pk_…).",
      });
    } catch (error) {
      if (!(error instanceof ForbiddenError && error.code === "FORBIDDEN")) {
        problems.push({ ...secretKeyProblem(error, input.baseUrl), field: "publishableKey" });
      }
    }
  }

  return problems.length === 0 && tier ? { ok: true, tier } : { ok: false, problems };
}

function shapeProblem(field: KeyProblem["field"], key: string): KeyProblem | undefined {
  const wanted = field === "secretKey" ? SECRET_KEY_PREFIX : PUBLISHABLE_KEY_PREFIX;
  const other = field === "secretKey" ? PUBLISHABLE_KEY_PREFIX : SECRET_KEY_PREFIX;
  const name = field === "secretKey" ? "secret key" : "publishable key";
  if (key === "") return { field, message: `Enter the ${name} (it starts with ${wanted}).` };
  if (key.startsWith(other)) {
    return {
      field,
      message: `This is a ${field === "secretKey" ? "publishable" : "secret"} key (${other}…); the ${name} starts with ${wanted}.`,
    };
  }
  if (!key.startsWith(wanted))
    return {
      field,
      message: `This is not a key of the search service: the ${name} starts with ${wanted}.`,
    };
  return undefined;
}

function secretKeyProblem(error: unknown, baseUrl: string): KeyProblem {
  const field = "secretKey" as const;
  if (error instanceof UnauthorizedError) {
    return {
      field,
      message:
        "The service does not accept this key: it is revoked, expired or mistyped. Copy it again from your service account.",
    };
  }
  if (error instanceof TrialExpiredError) {
    return {
      field,
      message: "This key's free trial has ended. Choose a plan to use it; your data is kept.",
      url: error.upgradeUrl,
    };
  }
  if (error instanceof SubscriptionInactiveError) {
    return {
      field,
      message: "This key's subscription is inactive. Reactivate it in your service account.",
    };
  }
  if (error instanceof ForbiddenError) {
    return {
      field,
      message: "This key may not write to the index: use the secret key (svc_sk_…).",
    };
  }
  if (error instanceof NetworkError) {
    return {
      field,
      message: `The search service at ${baseUrl} could not be reached. Try again in a moment.`,
    };
  }
  if (error instanceof IndexServiceError) {
    return {
      field,
      message: `The service refused the key check (${error.code}). Try again in a moment.`,
    };
  }
  throw error;
}
