import { policyServiceId } from "./gid";
import { htmlToPlainText, makeExcerpt } from "./html-text";
import type { IndexPost, MapContext, PostMapResult } from "./index-types";
import { INDEXED_POST_STATUS } from "./map-post";
import type { ShopifyShopPolicy } from "./shopify-types";
import { storefrontOrigin } from "./storefront-url";

/** What a policy is in the index: a page the chat can cite, named as a policy. */
export const POLICY_CATEGORY = "policy";

/**
 * The most of a policy's text the index keeps. Shopify allows 512 kB of HTML; the assistant
 * needs the terms, not a pasted legal archive, and one policy must never weigh down a batch.
 */
export const POLICY_TEXT_LIMIT = 20_000;
/** The most of a policy's HTML that is read (markup weighs several times its text). */
const POLICY_HTML_LIMIT = POLICY_TEXT_LIMIT * 10;
export const POLICY_CUT_NOTE = " … (shortened; the whole policy is on the store's page)";

/** The storefront path of a policy ("refund-policy" for REFUND_POLICY), as Shopify serves it. */
function policyPath(type: string): string {
  return String(type).toLowerCase().replace(/_/g, "-");
}

/**
 * A shop policy as a post: its title, its text (HTML reduced to text, bounded), its public URL.
 * A policy whose text is empty is not published on the storefront: not indexable.
 */
export function mapShopPolicy(policy: ShopifyShopPolicy, context: MapContext): PostMapResult {
  const id = policyServiceId(policy.id);
  // The schema says non-null; a line of another shape must still not stop the run's batch.
  const body = typeof policy.body === "string" ? policy.body : "";
  // Markup beyond this is not read: converting a 512 kB body would cost time for text that
  // could not be kept anyway.
  const htmlCut = body.length > POLICY_HTML_LIMIT;
  const text = htmlToPlainText(htmlCut ? body.slice(0, POLICY_HTML_LIMIT) : body);
  if (text === "") return { kind: "post", id, indexable: false, reason: "unpublished" };
  const content =
    htmlCut || text.length > POLICY_TEXT_LIMIT
      ? makeExcerpt(text, POLICY_TEXT_LIMIT - POLICY_CUT_NOTE.length).replace(/…$/, "") +
        POLICY_CUT_NOTE
      : text;
  const item: IndexPost = {
    id,
    title: (typeof policy.title === "string" ? policy.title.trim() : "") || defaultTitle(policy),
    content,
    excerpt: makeExcerpt(text),
    url: policyUrl(policy, context),
    post_type: "page",
    status: INDEXED_POST_STATUS,
    tags: [],
    categories: [POLICY_CATEGORY],
    source: "shopify",
  };
  if (policy.updatedAt) item.updated_at = policy.updatedAt;
  return { kind: "post", id, indexable: true, item };
}

/** "Refund policy" for REFUND_POLICY: a policy without a title still reads as what it is. */
function defaultTitle(policy: ShopifyShopPolicy): string {
  const words = policyPath(policy.type).replace(/-/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Shopify's own public URL of the policy; the storefront's `/policies/<type>` when it has none. */
function policyUrl(policy: ShopifyShopPolicy, context: MapContext): string {
  try {
    const url = new URL(policy.url);
    if (url.protocol === "https:" || url.protocol === "http:") return url.href;
  } catch {
    // Not a URL: the storefront's path below.
  }
  return `${storefrontOrigin(context.primaryDomain)}/policies/${policyPath(policy.type)}`;
}
