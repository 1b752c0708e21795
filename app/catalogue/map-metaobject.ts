import { metaobjectServiceId } from "./gid";
import { makeExcerpt } from "./html-text";
import type { IndexPost, MapContext, PostMapResult } from "./index-types";
import { INDEXED_POST_STATUS } from "./map-post";
import { metafieldLongText, metafieldText } from "./metafield-text";
import type { ShopifyMetaobject } from "./shopify-types";
import { storefrontOrigin } from "./storefront-url";

/** A metaobject definition the merchant chose in Settings: its entries are indexed as content. */
export interface ChosenMetaobject {
  /** The definition's type (`faq`), unique in the shop: what its entries are read by. */
  type: string;
  /** Its name when chosen ("FAQ"). */
  name: string;
}

/**
 * The most of an entry's text the index keeps. A definition may have 40 fields, each a rich text
 * of 65,000 characters; an FAQ answer or a size chart is a few hundred, and one entry must never
 * weigh down a batch.
 */
export const METAOBJECT_TEXT_LIMIT = 10_000;
export const METAOBJECT_CUT_NOTE = " … (shortened; the whole entry is in the store)";

/**
 * A metaobject entry (an FAQ question, a size chart) as a post: titled by its display name, its
 * text each field with a readable value as "Field name: text" (by the field's type, as a
 * metafield's), categorised by its definition's name. Its URL is its online store page when the
 * definition has that capability (`/pages/<url handle>/<entry handle>`); otherwise none: the
 * entry has no page a shopper could open. A draft entry, or one with no readable field, is not
 * indexable.
 */
export function mapMetaobject(entry: ShopifyMetaobject, context: MapContext): PostMapResult {
  const id = metaobjectServiceId(entry.id);
  if (entry.capabilities?.publishable?.status === "DRAFT") {
    return { kind: "post", id, indexable: false, reason: "unpublished" };
  }
  const lines: string[] = [];
  for (const field of Array.isArray(entry.fields) ? entry.fields : []) {
    if (typeof field.value !== "string" || typeof field.type !== "string") continue;
    const text =
      metafieldLongText(field.type, field.value) ??
      metafieldText(field.type, field.value)?.join("; ");
    if (!text) continue;
    const name = field.definition?.name?.trim() || field.key;
    lines.push(`${name}: ${text}`);
  }
  if (lines.length === 0) return { kind: "post", id, indexable: false, reason: "empty" };
  const text = lines.join("\n");
  const content = text.length > METAOBJECT_TEXT_LIMIT ? cutAtWord(text) : text;
  const definitionName = entry.definition?.name?.trim() || entry.type;
  const item: IndexPost = {
    id,
    title: (typeof entry.displayName === "string" ? entry.displayName.trim() : "") || entry.handle,
    content,
    excerpt: makeExcerpt(text.replace(/\n/g, " ")),
    post_type: "page",
    status: INDEXED_POST_STATUS,
    tags: [],
    categories: [definitionName],
    source: "shopify",
  };
  const url = entryUrl(entry, context);
  if (url) item.url = url;
  if (entry.updatedAt) item.updated_at = entry.updatedAt;
  return { kind: "post", id, indexable: true, item };
}

/** The text cut on a word boundary to the bound, its lines kept, the note at the end. */
function cutAtWord(text: string): string {
  const budget = METAOBJECT_TEXT_LIMIT - METAOBJECT_CUT_NOTE.length;
  const space = text.lastIndexOf(" ", budget);
  let cut = space >= budget * 0.6 ? space : budget;
  // Never between the two halves of an emoji or other astral character.
  if (/[\uD800-\uDBFF]/.test(text.charAt(cut - 1))) cut -= 1;
  return `${text.slice(0, cut).trimEnd()}${METAOBJECT_CUT_NOTE}`;
}

/** The entry's online store page, when its definition gives its entries pages. */
function entryUrl(entry: ShopifyMetaobject, context: MapContext): string | null {
  const onlineStore = entry.definition?.capabilities?.onlineStore;
  const urlHandle = onlineStore?.data?.urlHandle;
  if (!onlineStore?.enabled || !urlHandle || !entry.handle) return null;
  return `${storefrontOrigin(context.primaryDomain)}/pages/${encodeURIComponent(urlHandle)}/${encodeURIComponent(entry.handle)}`;
}
