/**
 * The shop's legal policies (`shop.shopPolicies`, `shopPolicyUpdate`): one per type at most, each
 * with Shopify's id, translated title and public URL on the primary domain. A policy set to an
 * empty body is gone from the list, as a cleared policy is from the storefront.
 */
import { SAMPLE_POLICIES, type SamplePolicyType } from "../sample-store/shop-policies";
import { gid } from "./gid";
import type { Json } from "./store";

export type ShopPolicyType = SamplePolicyType;

/** In `ShopPolicyType`'s order, as Shopify lists them. */
export const SHOP_POLICY_TYPES = Object.keys(SAMPLE_POLICIES).sort() as ShopPolicyType[];

const TITLES: Record<ShopPolicyType, string> = {
  CONTACT_INFORMATION: "Contact information",
  LEGAL_NOTICE: "Legal notice",
  PRIVACY_POLICY: "Privacy policy",
  REFUND_POLICY: "Refund policy",
  SHIPPING_POLICY: "Shipping policy",
  SUBSCRIPTION_POLICY: "Cancellation policy",
  TERMS_OF_SALE: "Terms of sale",
  TERMS_OF_SERVICE: "Terms of service",
};

/** Shopify's limit on a policy's body (the schema: "The maximum size is 512kb"). */
export const POLICY_BODY_MAX_BYTES = 512 * 1024;

export interface PolicyRecord {
  id: string;
  type: ShopPolicyType;
  body: string;
  createdAt: string;
  updatedAt: string;
}

export function isShopPolicyType(value: unknown): value is ShopPolicyType {
  return typeof value === "string" && (SHOP_POLICY_TYPES as string[]).includes(value);
}

export interface PolicyUserError {
  field: string[];
  message: string;
  code: "TOO_BIG" | null;
}

export class PolicyStore {
  readonly #byType = new Map<ShopPolicyType, PolicyRecord>();
  #nextId = 41_000_000_001;

  constructor(now: string, bodies: Partial<Record<ShopPolicyType, string>> = SAMPLE_POLICIES) {
    for (const type of SHOP_POLICY_TYPES) {
      const body = bodies[type];
      if (body) this.update(type, body, now);
    }
  }

  list(): PolicyRecord[] {
    return SHOP_POLICY_TYPES.flatMap((type) => {
      const record = this.#byType.get(type);
      return record ? [record] : [];
    });
  }

  /** Sets a policy's body (a new policy gets a new id); an empty body removes it. */
  update(
    type: ShopPolicyType,
    body: string,
    now: string,
  ): { policy: PolicyRecord | null; userErrors: PolicyUserError[] } {
    if (Buffer.byteLength(body) > POLICY_BODY_MAX_BYTES) {
      return {
        policy: null,
        userErrors: [
          { field: ["shopPolicy", "body"], message: "Body is too big", code: "TOO_BIG" },
        ],
      };
    }
    const existing = this.#byType.get(type);
    if (body.trim() === "") {
      this.#byType.delete(type);
      return { policy: null, userErrors: [] };
    }
    const record: PolicyRecord = existing
      ? { ...existing, body, updatedAt: now }
      : { id: gid("ShopPolicy", this.#nextId++), type, body, createdAt: now, updatedAt: now };
    this.#byType.set(type, record);
    return { policy: record, userErrors: [] };
  }
}

/** A policy as the Admin API answers it; its URL is on the shop's primary domain. */
export function policyView(record: PolicyRecord, primaryDomain: string): Json {
  return {
    __typename: "ShopPolicy",
    ...record,
    title: TITLES[record.type],
    url: `https://${primaryDomain}/policies/${record.type.toLowerCase().replace(/_/g, "-")}`,
  };
}
