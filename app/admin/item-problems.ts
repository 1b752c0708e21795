/**
 * Why an item is not in the index, in a merchant's words: the service's refusal reasons are
 * written for developers ("VALIDATION_ERROR: name is required (item 3)"), so they are translated
 * here; anything not recognised is still named as a refusal, without codes or positions.
 */
import { adminFormat, type AdminFormat } from "../format";

const FIELD_WORDS: Record<string, string> = {
  name: "title",
  title: "title",
  price: "price",
  regular_price: "price",
  sale_price: "sale price",
  url: "link",
  image: "image",
  categories: "collections",
  tags: "tags",
  attributes: "options",
  content: "description",
};

export function refusalInMerchantWords(error: string | null): string {
  const text = (error ?? "")
    .replace(/^[A-Z][A-Z_]+:\s*/, "")
    .replace(/\s*\(item \d+\)\s*$/, "")
    .trim();
  const field = /^([a-z_]+) (?:is required|must be)/.exec(text)?.[1];
  if (field && /is required/.test(text)) {
    return `The search service needs a ${FIELD_WORDS[field] ?? field.replace(/_/g, " ")}, and this item has none.`;
  }
  if (field) {
    return `The search service did not accept its ${FIELD_WORDS[field] ?? field.replace(/_/g, " ")}.`;
  }
  if (/too large|PAYLOAD_TOO_LARGE/i.test(error ?? "")) {
    return "It is too large for the search service (a very long description, or very many variants).";
  }
  if (/did not acknowledge/i.test(text)) {
    return "The search service did not confirm it received this item.";
  }
  return text
    ? `The search service refused it, saying: “${text}”.`
    : "The search service refused it without saying why.";
}

export function overQuotaInMerchantWords(
  kind: "product" | "post",
  limit: number,
  resetsOn: Date,
  f: AdminFormat = adminFormat(),
): string {
  const what = kind === "product" ? "products" : "pages and articles";
  return `Left out: this month's quota of ${f.number(limit)} ${what} is used up. It comes back on ${f.day(resetsOn)}.`;
}

/** What the merchant can do about a refusal, after the reason (refusalInMerchantWords). */
export function refusalRemedy(error: string | null): string {
  const text = (error ?? "").replace(/^[A-Z][A-Z_]+:\s*/, "").trim();
  const field = /^([a-z_]+) (?:is required|must be)/.exec(text)?.[1];
  const words = field ? (FIELD_WORDS[field] ?? field.replace(/_/g, " ")) : null;
  if (words && /is required/.test(text)) {
    return `Fill in its ${words} in Shopify, then press Retry failed items.`;
  }
  if (words) return `Correct its ${words} in Shopify, then press Retry failed items.`;
  if (/too large|PAYLOAD_TOO_LARGE/i.test(error ?? "")) {
    return "Shorten its description (or remove some variants) in Shopify, then press Retry failed items.";
  }
  return "Press Retry failed items; if it is refused again, check the item in Shopify, or send the reason above to the search service's support.";
}

/** What the merchant can do about items over the month's quota. */
export function overQuotaRemedy(resetsOn: Date, f: AdminFormat = adminFormat()): string {
  return `Raise your plan with the search service to send them now, or wait for ${f.day(resetsOn)}.`;
}
