/**
 * Shopify global ids (`gid://shopify/<Type>/<id>`) and the ids the service knows items by.
 * Products keep Shopify's numeric id; pages and articles share the service's post id space, so
 * they are prefixed to keep a page and an article with the same number apart.
 */

const GID_PATTERN = /^gid:\/\/shopify\/([A-Za-z0-9_]+)\/([^/?#]+)/;

export interface ParsedGid {
  type: string;
  id: string;
}

export function parseGid(gid: string): ParsedGid | null {
  const match = GID_PATTERN.exec(gid);
  if (!match || match[1] === undefined || match[2] === undefined) return null;
  return { type: match[1], id: match[2] };
}

const GID_PREFIX = "gid://shopify/";

/** The `<Type>` of a gid, or null when the string is not a Shopify gid. Called for every line. */
export function gidType(gid: string): string | null {
  if (!gid.startsWith(GID_PREFIX)) return null;
  const end = gid.indexOf("/", GID_PREFIX.length);
  if (end <= GID_PREFIX.length || end === gid.length - 1) return null;
  return gid.slice(GID_PREFIX.length, end);
}

/** Shopify's ids are positive integers (64-bit): digits, no sign, no leading zero. */
const SHOPIFY_ID = /^[1-9]\d{0,19}$/;

/**
 * The numeric part of a gid; accepts a bare number too (webhooks carry `id: 632910392`). Anything
 * that is not a positive integer Shopify could have issued (`-5`, `1.5`, `1e400`, `abc`, a number
 * past 2^53 that JSON has already rounded) is refused, so it can never reach the outbox or the index.
 */
export function numericId(gidOrId: string | number): string {
  const id =
    typeof gidOrId === "number"
      ? Number.isSafeInteger(gidOrId)
        ? String(gidOrId)
        : null
      : (parseGid(gidOrId)?.id ?? gidOrId);
  if (id !== null && SHOPIFY_ID.test(id)) return id;
  throw new Error(`"${String(gidOrId)}" is neither a Shopify gid nor a numeric id`);
}

export function toGid(
  type: "Product" | "Page" | "Article" | "ShopPolicy" | "Metaobject",
  gidOrId: string | number,
): string {
  return `gid://shopify/${type}/${numericId(gidOrId)}`;
}

/**
 * Pages and articles are numbered separately in Shopify and are both posts in the service, so
 * their service ids carry these prefixes; a product's id is its number alone.
 */
export const SERVICE_ID_PREFIXES = {
  product: "",
  page: "page-",
  article: "article-",
  policy: "policy-",
  metaobject: "metaobject-",
} as const;

export function productServiceId(gidOrId: string | number): string {
  return numericId(gidOrId);
}

export function pageServiceId(gidOrId: string | number): string {
  return `${SERVICE_ID_PREFIXES.page}${numericId(gidOrId)}`;
}

export function articleServiceId(gidOrId: string | number): string {
  return `${SERVICE_ID_PREFIXES.article}${numericId(gidOrId)}`;
}

/** A shop policy's service id: its Shopify number, apart from pages' and articles'. */
export function policyServiceId(gidOrId: string | number): string {
  return `${SERVICE_ID_PREFIXES.policy}${numericId(gidOrId)}`;
}

/** A metaobject entry's service id (an FAQ question, a size chart): apart from other posts. */
export function metaobjectServiceId(gidOrId: string | number): string {
  return `${SERVICE_ID_PREFIXES.metaobject}${numericId(gidOrId)}`;
}
