/**
 * Metafields as `metafieldsSet` writes them: keyed by owner, namespace and key; the app-reserved
 * namespace (`$app`, or none given) reads back as `app--<app id>`. Atomic like Shopify's: one bad
 * input and nothing is stored.
 */
import { createHash } from "node:crypto";
import { gid, gidType } from "./gid";

export interface MetafieldRecord {
  id: string;
  ownerId: string;
  namespace: string;
  key: string;
  type: string;
  value: string;
  createdAt: string;
  updatedAt: string;
}

export interface MetafieldsSetInput {
  ownerId: string;
  namespace?: string | null;
  key: string;
  type?: string | null;
  value: string;
  compareDigest?: string | null;
}

export interface MetafieldUserError {
  field: string[];
  message: string;
  code: string;
  elementIndex: number | null;
}

const MAX_INPUTS = 25;

const OWNER_TYPES: Readonly<Record<string, string>> = {
  AppInstallation: "API_PERMISSION",
  Product: "PRODUCT",
  ProductVariant: "PRODUCTVARIANT",
  Collection: "COLLECTION",
  Page: "PAGE",
  Article: "ARTICLE",
  Blog: "BLOG",
  Shop: "SHOP",
  MediaImage: "MEDIA_IMAGE",
};

export function ownerType(ownerId: string): string {
  return OWNER_TYPES[gidType(ownerId) ?? ""] ?? "SHOP";
}

export function digest(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

/** Types stored as JSON (an object; a list type as an array), as Shopify validates them. */
const JSON_VALUE_TYPES = new Set([
  "rich_text_field",
  "rating",
  "dimension",
  "weight",
  "volume",
  "money",
  "link",
]);

/** What a `json` metafield written with API 2026-04 or later may hold. */
const JSON_MAX_BYTES = 128 * 1024;

/** Why a stored value fails its type (Shopify's message), or null. */
export function valueProblem(type: string, value: string): string | null {
  if (type.startsWith("list.") || JSON_VALUE_TYPES.has(type)) {
    try {
      const parsed = JSON.parse(value) as unknown;
      const list = type.startsWith("list.");
      if (list ? Array.isArray(parsed) : typeof parsed === "object" && parsed !== null) return null;
    } catch {
      // Reported below.
    }
    return "Value is invalid JSON.";
  }
  switch (type) {
    case "json":
      // API 2026-04 and later: a json value is written up to 128 KB (Shopify's changelog,
      // "JSON metafield values limited to 128KB"); the message is the fake's own words.
      if (Buffer.byteLength(value, "utf8") > JSON_MAX_BYTES)
        return `Value is too large: a json metafield takes at most ${JSON_MAX_BYTES} bytes.`;
      try {
        JSON.parse(value);
        return null;
      } catch {
        return "Value is invalid JSON.";
      }
    case "boolean":
      return value === "true" || value === "false" ? null : "Value must be true or false.";
    case "number_integer":
      return /^-?\d+$/.test(value) ? null : "Value must be an integer.";
    case "number_decimal":
      return /^-?\d+(\.\d+)?$/.test(value) ? null : "Value must be a decimal.";
    default:
      return null;
  }
}

export class MetafieldStore {
  readonly #byKey = new Map<string, MetafieldRecord>();
  #nextId = 1;

  constructor(private readonly appId: string) {}

  /** `$app`, `$app:x` and `app--<id>`, `app--<id>--x` name the same namespaces. */
  canonicalNamespace(namespace: string | null | undefined): string {
    if (namespace === null || namespace === undefined || namespace === "") return "$app";
    const reserved = `app--${this.appId}`;
    if (namespace === reserved) return "$app";
    if (namespace.startsWith(`${reserved}--`))
      return `$app:${namespace.slice(reserved.length + 2)}`;
    return namespace;
  }

  /** The namespace as Shopify returns it. */
  publicNamespace(canonical: string): string {
    if (canonical === "$app") return `app--${this.appId}`;
    if (canonical.startsWith("$app:")) return `app--${this.appId}--${canonical.slice(5)}`;
    return canonical;
  }

  get(ownerId: string, namespace: string | null | undefined, key: string) {
    return this.#byKey.get(this.#key(ownerId, this.canonicalNamespace(namespace), key));
  }

  byId(id: string): MetafieldRecord | undefined {
    return [...this.#byKey.values()].find((record) => record.id === id);
  }

  ofOwner(ownerId: string, namespace?: string | null): MetafieldRecord[] {
    const wanted =
      namespace === undefined || namespace === null ? null : this.canonicalNamespace(namespace);
    return [...this.#byKey.values()].filter(
      (record) => record.ownerId === ownerId && (wanted === null || record.namespace === wanted),
    );
  }

  /** Deletes every metafield the predicate picks; how many went. */
  deleteWhere(picked: (record: MetafieldRecord) => boolean): number {
    let count = 0;
    for (const [key, record] of this.#byKey) {
      if (!picked(record)) continue;
      this.#byKey.delete(key);
      count += 1;
    }
    return count;
  }

  list(): MetafieldRecord[] {
    return [...this.#byKey.values()].map((record) => ({ ...record }));
  }

  set(
    inputs: MetafieldsSetInput[],
    ownerExists: (ownerId: string) => boolean,
    now: string,
    /** The type of the owner's definition of that namespace and key (then `type` may be left out). */
    definedType: (ownerId: string, namespace: string, key: string) => string | undefined = () =>
      undefined,
  ): { metafields: MetafieldRecord[] | null; userErrors: MetafieldUserError[] } {
    const typeOf = (input: MetafieldsSetInput, existing: MetafieldRecord | undefined) =>
      input.type ??
      existing?.type ??
      definedType(input.ownerId, this.canonicalNamespace(input.namespace), input.key);
    const userErrors: MetafieldUserError[] = [];
    if (inputs.length > MAX_INPUTS) {
      userErrors.push({
        field: ["metafields"],
        message: `Exceeded the maximum metafields input limit of ${MAX_INPUTS}.`,
        code: "LESS_THAN_OR_EQUAL_TO",
        elementIndex: null,
      });
      return { metafields: null, userErrors };
    }
    inputs.forEach((input, index) => {
      const at = (field: string) => ["metafields", String(index), field];
      const error = (field: string, message: string, code: string) =>
        userErrors.push({ field: at(field), message, code, elementIndex: index });
      if (!ownerExists(input.ownerId)) {
        error("ownerId", "Owner does not exist.", "INVALID");
        return;
      }
      const existing = this.get(input.ownerId, input.namespace, input.key);
      const type = typeOf(input, existing);
      if (!type) {
        error("type", "Type can't be blank.", "BLANK");
        return;
      }
      if (input.key.length < 2)
        error("key", "Key is too short (minimum is 2 characters).", "TOO_SHORT");
      const problem = valueProblem(type, input.value);
      if (problem) error("value", problem, "INVALID_VALUE");
      if (
        input.compareDigest !== undefined &&
        (input.compareDigest === null
          ? existing !== undefined
          : existing?.value === undefined || digest(existing.value) !== input.compareDigest)
      ) {
        error(
          "compareDigest",
          "The resource has been updated since it was loaded. Try again with an updated `compareDigest` value.",
          "STALE_OBJECT",
        );
      }
    });
    if (userErrors.length > 0) return { metafields: null, userErrors };

    const metafields = inputs.map((input) => {
      const namespace = this.canonicalNamespace(input.namespace);
      const key = this.#key(input.ownerId, namespace, input.key);
      const existing = this.#byKey.get(key);
      const record: MetafieldRecord = {
        id: existing?.id ?? gid("Metafield", this.#nextId++),
        ownerId: input.ownerId,
        namespace,
        key: input.key,
        type: typeOf(input, existing) ?? "single_line_text_field",
        value: input.value,
        createdAt: existing?.createdAt ?? now,
        updatedAt: now,
      };
      this.#byKey.set(key, record);
      return record;
    });
    return { metafields, userErrors: [] };
  }

  #key(ownerId: string, namespace: string, key: string): string {
    return `${ownerId}\u0000${namespace}\u0000${key}`;
  }
}
