import { randomBytes } from "node:crypto";
import type { Shop } from "@prisma/client";
import { config } from "../config.server";
import { INDEXED_PRODUCT_STATUS } from "../catalogue/map-product";
import {
  CONTENT_SOURCE,
  POST_TYPES,
  WRITE_VISIBLE_SEARCH_ATTEMPTS,
  WRITE_VISIBLE_SEARCH_EVERY_MS,
} from "../index-service/assumptions";
import { IndexServiceClient } from "../index-service/client";
import {
  ForbiddenError,
  IndexServiceError,
  NetworkError,
  NotFoundError,
  QuotaExceededError,
  SubscriptionInactiveError,
  TrialExpiredError,
  UnauthorizedError,
} from "../index-service/errors";
import { PUBLISHABLE_KEY_PREFIX, SECRET_KEY_PREFIX } from "../index-service/protocol";
import { API_KEY_CHARACTERS, API_KEY_MAX_LENGTH } from "../index-service/assumptions";
import type { Tier } from "../index-service/tiers";
import type { ServiceResponse } from "../index-service/types";
import { rateKeyId } from "../index-service/key-request-counts";
import { openSecret } from "../secret-box.server";
import { indexedProductSample, type ContentKind } from "../models/ledger.server";
import { workspaceOf } from "../models/shops.server";
import { proveSecretKey } from "../sync/engine/tier-detection";

export class ShopNotConnectedError extends Error {
  constructor(shopDomain: string) {
    super(`${shopDomain} has no secret key for the search service yet: save one in Settings.`);
    this.name = "ShopNotConnectedError";
  }
}

/** The service's client for a shop: its decrypted secret key, scoped to its workspace. */
export function serviceClientFor(shop: Shop): IndexServiceClient {
  return serviceClientForWorkspace(shop, workspaceOf(shop));
}

/** The shop's key scoped to another of its workspaces (a storefront domain's, presence-workspaces). */
export function serviceClientForWorkspace(
  shop: Shop,
  workspaceId: string | null,
): IndexServiceClient {
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

/** The month's quota use the service reported after the key check's test item. */
export interface ReportedQuota {
  kind: ContentKind;
  current: number;
  limit: number;
}

export type KeyCheck =
  | {
      ok: true;
      tier: Tier;
      /** The publishable key was shown to read the secret key's workspace. */
      pairProved: boolean;
      testItemQuota?: ReportedQuota;
    }
  | {
      ok: false;
      problems: KeyProblem[];
      /** A test item was written (its quota spent) before the pair was refused. */
      testItemQuota?: ReportedQuota;
    };

/** The publishable key does not find what the secret key's workspace holds: another account's. */
export const ACCOUNT_MISMATCH_MESSAGE =
  "The publishable key belongs to another account than the secret key: the storefront's search and chat would find none of your catalogue. Copy the publishable key from the same account of the search service as the secret key (or both keys again).";

/**
 * Checks both keys against the service before they are saved: the secret key must be allowed to
 * write to the workspace (a bulk delete of an id nothing has) and name the tier; the publishable
 * key must be a publishable key (refused a server-only call with 403, not 401 and not allowed);
 * and, with `pairOf`, the two must work together: the publishable key must read what the secret
 * key wrote in the workspace (`pairProblemOf`).
 */
export async function checkServiceKeys(input: {
  baseUrl: string;
  workspaceId: string;
  secretKey: string;
  publishableKey: string;
  /** The shop whose ledger names what the workspace holds; absent, the pair is not proved. */
  pairOf?: string;
  /** Whether an empty workspace may be proved with a test item (one item of the quota). */
  testItemAllowed?: boolean;
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

  if (problems.length > 0 || !tier) return { ok: false, problems };
  if (input.pairOf === undefined) return { ok: true, tier, pairProved: false };
  const pair = await pairProblemOf(
    clientWith(secretKey),
    clientWith(publishableKey),
    await indexedProductSample(
      { shopDomain: input.pairOf, workspaceId: input.workspaceId },
      PAIR_CANDIDATES,
    ),
    input.testItemAllowed ?? false,
  );
  const spent = pair.testItemQuota ? { testItemQuota: pair.testItemQuota } : {};
  if ("problem" in pair) return { ok: false, problems: [pair.problem], ...spent };
  return {
    ok: true,
    tier,
    pairProved: pair.proved,
    ...spent,
  };
}

/** How many of the ledger's products the pair check tries (the first the secret key still has). */
const PAIR_CANDIDATES = 3;

/** Marks the test item of a key check on a workspace that holds nothing yet (never a Shopify id). */
const PAIR_TEST_ITEM_ID_PREFIX = "__catalog_chat_key_pair_";

type PairOutcome = ({ problem: KeyProblem } | { proved: boolean }) & {
  testItemQuota?: ReportedQuota | undefined;
};

/**
 * Whether the publishable key reads what the secret key wrote in the workspace. Costs no products
 * or pages quota when the workspace holds a product the ledger names: the secret key reads it
 * (GET, no quota) and the publishable key must find it by its name (a search query per product
 * tried, up to `PAIR_CANDIDATES`, so that one name too common to come up is not taken for a
 * mismatch). On a workspace that holds none (a first connection, a move), the secret key writes a
 * test page named with a random word (a product when the pages quota is used up), the
 * publishable key must find it, and it is deleted again: one item of the month's quota, which the
 * caller records (`testItemQuota`) so that syncs plan with it. Decision 0022.
 */
async function pairProblemOf(
  secret: IndexServiceClient,
  publishable: IndexServiceClient,
  candidates: readonly string[],
  testItemAllowed: boolean,
): Promise<PairOutcome> {
  let held = 0;
  for (const id of candidates) {
    let name: unknown;
    try {
      name = (await secret.getProduct(id)).data.name;
    } catch (error) {
      // Not there with this key (another account's workspace, or the ledger is behind).
      if (error instanceof NotFoundError) continue;
      return { problem: secretKeyProblem(error, secret.baseUrl) };
    }
    if (typeof name !== "string" || name.trim() === "") continue;
    held++;
    try {
      const found = await publishable.search({ text: name, limit: PAIR_SEARCH_LIMIT });
      if (found.data.results.some((hit) => hit.id === id)) return { proved: true };
    } catch (error) {
      return {
        problem: { ...secretKeyProblem(error, publishable.baseUrl), field: "publishableKey" },
      };
    }
  }
  if (held > 0) return { problem: { field: "publishableKey", message: ACCOUNT_MISMATCH_MESSAGE } };
  // An unchanged pair on an empty workspace was proved when it was saved.
  return testItemAllowed ? testItemProof(secret, publishable) : { proved: false };
}

/** Results asked of a search for a product's name (the emulator's most; the spec names none). */
const PAIR_SEARCH_LIMIT = 50;

/**
 * The test item on an empty workspace: a page, or a product when the month's pages are used up
 * (both counted, and recorded by the caller). Refused only when neither can be written.
 */
async function testItemProof(
  secret: IndexServiceClient,
  publishable: IndexServiceClient,
): Promise<PairOutcome> {
  const word = `keycheck${randomBytes(6).toString("hex")}`;
  const id = `${PAIR_TEST_ITEM_ID_PREFIX}${word}`;
  const title = `Catalog Chat key check ${word}`;
  const content = "A test item the Catalog Chat app writes and deletes while checking its keys.";
  let kind: ContentKind = "post";
  let written: ServiceResponse<unknown>;
  try {
    try {
      written = await secret.upsertPost({
        id,
        title,
        content,
        post_type: POST_TYPES[0],
        source: CONTENT_SOURCE,
      });
    } catch (error) {
      if (!(error instanceof QuotaExceededError)) throw error;
      kind = "product";
      written = await secret.upsertProduct({
        id,
        name: title,
        content,
        status: INDEXED_PRODUCT_STATUS,
        stock_status: "outofstock",
        source: CONTENT_SOURCE,
      });
    }
  } catch (error) {
    if (error instanceof QuotaExceededError) {
      return {
        problem: {
          field: "secretKey",
          message:
            "The keys could not be checked together: this month's quotas of products and of online store pages of the secret key's account are both used up, and on an empty workspace the check writes one test item. Save again after the quotas reset on the 1st, or upgrade the plan.",
        },
      };
    }
    return { problem: secretKeyProblem(error, secret.baseUrl) };
  }
  const quota = written.usage?.quota;
  const testItemQuota = quota ? { kind, current: quota.current, limit: quota.limit } : undefined;
  try {
    for (let attempt = 0; attempt < WRITE_VISIBLE_SEARCH_ATTEMPTS; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, WRITE_VISIBLE_SEARCH_EVERY_MS));
      const { data } = await publishable.search({ text: word });
      const hits = kind === "post" ? data.posts : data.results;
      if (hits.some((hit) => hit.id === id)) return { proved: true, testItemQuota };
    }
    return {
      problem: { field: "publishableKey", message: ACCOUNT_MISMATCH_MESSAGE },
      testItemQuota,
    };
  } catch (error) {
    return {
      problem: { ...secretKeyProblem(error, publishable.baseUrl), field: "publishableKey" },
      testItemQuota,
    };
  } finally {
    const remove = kind === "post" ? secret.deletePost(id) : secret.deleteProduct(id);
    await remove.catch(() => undefined);
  }
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
  if (key.length > API_KEY_MAX_LENGTH || !API_KEY_CHARACTERS.test(key)) {
    return {
      field,
      message: `This ${name} is malformed: a key is one line of at most ${API_KEY_MAX_LENGTH} letters, digits and signs, without spaces or line breaks. Copy it again from your service account.`,
    };
  }
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
