/**
 * Products and posts: upsert, bulk upsert (1–100 items), get, delete, bulk delete, and product
 * search. Quota rule: each newly created item counts 1 against the month's products (or content
 * pages) quota; updating an existing item, deleting, and re-sending the same id do not count (an
 * item deleted and created again counts again). A bulk request whose new items exceed what is
 * left of the quota is refused whole with 403 QUOTA_EXCEEDED, writing nothing.
 */
import {
  quotaExceeded,
  reply,
  requireWorkspace,
  validationError,
  type ApiContext,
} from "./context";
import { HttpError } from "./http-utils";
import { isObject } from "../http";
import { quotaUsage } from "./limits";
import { rank, type WeightedField } from "./search";
import type { ContentKind, StoredItem } from "./store";
import type { QuotaFeature } from "./tiers";
import type { WebhookEvent } from "./webhooks";

export const BULK_MAX_ITEMS = 100;
const SEARCH_DEFAULT_LIMIT = 10;
const SEARCH_MAX_LIMIT = 50;
const SEARCH_POSTS_LIMIT = 3;

interface KindSpec {
  kind: ContentKind;
  label: "product" | "post";
  titleField: "name" | "title";
  quota: QuotaFeature;
  /** The spec's key first; `entities` is what the public SDK sends. */
  bulkKeys: readonly string[];
  numberFields: readonly string[];
  stringListFields: readonly string[];
  eventFields: readonly string[];
}

export const PRODUCTS: KindSpec = {
  kind: "products",
  label: "product",
  titleField: "name",
  quota: "products",
  bulkKeys: ["products", "entities"],
  numberFields: ["price", "regular_price", "sale_price", "stock_quantity"],
  stringListFields: ["categories", "tags", "brands"],
  eventFields: ["id", "name", "price", "categories"],
};

export const POSTS: KindSpec = {
  kind: "posts",
  label: "post",
  titleField: "title",
  quota: "posts",
  bulkKeys: ["posts", "entities"],
  numberFields: [],
  stringListFields: ["categories", "tags"],
  eventFields: ["id", "title", "url", "post_type"],
};

type Checked = { ok: true; item: StoredItem } | { ok: false; id: string; error: string };

function check(spec: KindSpec, value: unknown, position?: number): Checked {
  const where = position === undefined ? "" : ` (item ${position})`;
  if (!isObject(value))
    return { ok: false, id: "", error: `A ${spec.label} must be an object${where}` };
  const id = typeof value.id === "string" ? value.id : "";
  const fail = (error: string): Checked => ({ ok: false, id, error: `${error}${where}` });
  if (id.trim() === "") return fail("id is required and must be a non-empty string");
  const title = value[spec.titleField];
  if (typeof title !== "string" || title.trim() === "") {
    return fail(`${spec.titleField} is required and must be a non-empty string`);
  }
  for (const field of spec.numberFields) {
    const number = value[field];
    if (
      number !== undefined &&
      (typeof number !== "number" || !Number.isFinite(number) || number < 0)
    ) {
      return fail(`${field} must be a number >= 0`);
    }
  }
  for (const field of spec.stringListFields) {
    const list = value[field];
    if (
      list !== undefined &&
      (!Array.isArray(list) || list.some((entry) => typeof entry !== "string"))
    ) {
      return fail(`${field} must be a list of strings`);
    }
  }
  if (value.attributes !== undefined && !isObject(value.attributes)) {
    return fail("attributes must be an object");
  }
  return { ok: true, item: { ...value, id } };
}

function eventData(spec: KindSpec, item: StoredItem, workspaceId: string): Record<string, unknown> {
  const data: Record<string, unknown> = { workspace_id: workspaceId };
  for (const field of spec.eventFields) if (item[field] !== undefined) data[field] = item[field];
  return data;
}

function emit(context: ApiContext, spec: KindSpec, action: string, data: Record<string, unknown>) {
  context.core.hub.emit(context.account.name, `${spec.label}.${action}` as WebhookEvent, data);
}

/** The request's workspace; created only when `create` (a write that passed validation). */
function workspaceOf(context: ApiContext, create: boolean) {
  const id = requireWorkspace(context);
  const { store } = context.core;
  return create
    ? store.workspace(context.account.name, id)
    : (store.find(context.account.name, id) ?? { id, products: new Map(), posts: new Map() });
}

export function upsert(spec: KindSpec) {
  return (context: ApiContext) => {
    requireWorkspace(context);
    const checked = check(spec, context.body);
    if (!checked.ok) throw validationError(checked.error);
    const workspace = workspaceOf(context, true);
    const { item } = checked;
    const items = workspace[spec.kind];
    const existing = items.has(item.id);
    if (!existing) {
      if (context.account.remaining(spec.quota, context.now) < 1) {
        const { limit, resetDate } = quotaUsage(context.account, spec.quota, context.now);
        throw quotaExceeded(spec.kind, limit, resetDate);
      }
      context.account.consume(spec.quota, 1, context.now);
    }
    items.set(item.id, item);
    emit(context, spec, existing ? "updated" : "created", eventData(spec, item, workspace.id));
    reply(context, { id: item.id, created: !existing }, spec.quota);
  };
}

function bulkList(spec: KindSpec, body: unknown, keys: readonly string[]): unknown[] {
  const key = isObject(body) ? keys.find((candidate) => Array.isArray(body[candidate])) : undefined;
  if (!isObject(body) || key === undefined) {
    throw validationError(`The body must be {${keys[0]}: [...]}`);
  }
  const list = body[key] as unknown[];
  if (list.length === 0) throw validationError(`${keys[0]} must hold at least 1 ${spec.label}`);
  if (list.length > BULK_MAX_ITEMS) {
    throw new HttpError(
      413,
      "PAYLOAD_TOO_LARGE",
      `A bulk request takes at most ${BULK_MAX_ITEMS} items; this one has ${list.length}`,
    );
  }
  return list;
}

export function bulkUpsert(spec: KindSpec) {
  return (context: ApiContext) => {
    requireWorkspace(context);
    const list = bulkList(spec, context.body, spec.bulkKeys);
    const checked = list.map((value, index): Checked => {
      const result = check(spec, value, index);
      const refusal = result.ok ? context.core.refusedItems.get(result.item.id) : undefined;
      return refusal && result.ok ? { ok: false, id: result.item.id, error: refusal } : result;
    });
    const workspace = workspaceOf(
      context,
      checked.some((result) => result.ok),
    );
    const items = workspace[spec.kind];
    const newIds = new Set(
      checked.flatMap((result) =>
        result.ok && !items.has(result.item.id) ? [result.item.id] : [],
      ),
    );
    const left = context.account.remaining(spec.quota, context.now);
    if (newIds.size > left) {
      const { limit, resetDate } = quotaUsage(context.account, spec.quota, context.now);
      const error = quotaExceeded(spec.kind, limit, resetDate);
      throw new HttpError(
        error.status,
        error.code,
        `${error.message} (${newIds.size} new items, ${left} left)`,
      );
    }
    context.account.consume(spec.quota, newIds.size, context.now);
    const successfulIds: string[] = [];
    const failedItems: Array<{ id: string; error: string }> = [];
    for (const result of checked) {
      if (!result.ok) {
        failedItems.push({ id: result.id, error: result.error });
        continue;
      }
      const existing = items.has(result.item.id);
      items.set(result.item.id, result.item);
      successfulIds.push(result.item.id);
      emit(
        context,
        spec,
        existing ? "updated" : "created",
        eventData(spec, result.item, workspace.id),
      );
    }
    reply(context, { successfulIds, failedItems, processed: list.length }, spec.quota);
  };
}

export function getOne(spec: KindSpec) {
  return (context: ApiContext) => {
    const item = workspaceOf(context, false)[spec.kind].get(context.params.id ?? "");
    if (!item) throw new HttpError(404, "NOT_FOUND", `No ${spec.label} ${context.params.id}`);
    reply(context, item, spec.quota);
  };
}

export function deleteOne(spec: KindSpec) {
  return (context: ApiContext) => {
    const workspace = workspaceOf(context, false);
    const id = context.params.id ?? "";
    const item = workspace[spec.kind].get(id);
    if (!item) throw new HttpError(404, "NOT_FOUND", `No ${spec.label} ${id}`);
    workspace[spec.kind].delete(id);
    emit(context, spec, "deleted", eventData(spec, item, workspace.id));
    reply(context, { id, deleted: true }, spec.quota);
  };
}

export function bulkDelete(spec: KindSpec) {
  return (context: ApiContext) => {
    const workspace = workspaceOf(context, false);
    const ids = bulkList(spec, context.body, ["ids"]);
    const successfulIds: string[] = [];
    const failedItems: Array<{ id: string; error: string }> = [];
    for (const id of ids) {
      if (typeof id !== "string" || id === "") {
        failedItems.push({ id: String(id ?? ""), error: "id must be a non-empty string" });
        continue;
      }
      const item = workspace[spec.kind].get(id);
      if (!item) {
        failedItems.push({ id, error: `NOT_FOUND: no ${spec.label} ${id}` });
        continue;
      }
      workspace[spec.kind].delete(id);
      successfulIds.push(id);
      emit(context, spec, "deleted", eventData(spec, item, workspace.id));
    }
    reply(context, { successfulIds, failedItems, processed: ids.length }, spec.quota);
  };
}

function text(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.filter((entry) => typeof entry === "string").join(" ");
  if (isObject(value)) return Object.values(value).map(text).join(" ");
  return undefined;
}

export function productFields(product: StoredItem): WeightedField[] {
  return [
    { text: text(product.name), weight: 3 },
    { text: text(product.categories), weight: 2 },
    { text: text(product.tags), weight: 2 },
    { text: text(product.brands), weight: 2 },
    { text: text(product.sku), weight: 2 },
    { text: text(product.excerpt), weight: 1 },
    { text: text(product.content), weight: 1 },
    { text: text(product.attributes), weight: 1 },
  ];
}

export function postFields(post: StoredItem): WeightedField[] {
  return [
    { text: text(post.title), weight: 3 },
    { text: text(post.tags), weight: 2 },
    { text: text(post.categories), weight: 2 },
    { text: text(post.excerpt), weight: 1 },
    { text: text(post.content), weight: 1 },
  ];
}

export function search(context: ApiContext) {
  const body = context.body;
  if (!isObject(body) || typeof body.text !== "string" || body.text.trim() === "") {
    throw validationError("text is required and must be a non-empty string");
  }
  const limit = body.limit ?? SEARCH_DEFAULT_LIMIT;
  if (
    typeof limit !== "number" ||
    !Number.isInteger(limit) ||
    limit < 1 ||
    limit > SEARCH_MAX_LIMIT
  ) {
    throw validationError(`limit must be an integer from 1 to ${SEARCH_MAX_LIMIT}`);
  }
  const { account, now } = context;
  if (account.remaining("searchQueries", now) < 1) {
    const { limit: quota, resetDate } = quotaUsage(account, "searchQueries", now);
    throw quotaExceeded("search queries", quota, resetDate);
  }
  account.consume("searchQueries", 1, now);
  const workspaces = context.core.store.scope(account.name, context.workspaceId);
  const products = workspaces.flatMap((workspace) => [...workspace.products.values()]);
  const ranked = rank(products, body.text, productFields, Number.POSITIVE_INFINITY, {
    prefix: true,
  });
  // Pages and articles that match, beside the products (what a search box shows under them).
  const posts = rank(
    workspaces.flatMap((workspace) => [...workspace.posts.values()]),
    body.text,
    postFields,
    SEARCH_POSTS_LIMIT,
    { prefix: true },
  );
  reply(
    context,
    {
      query: body.text,
      results: ranked.slice(0, limit).map(({ item, score }) => ({ ...item, score })),
      total: ranked.length,
      posts: posts.map(({ item, score }) => ({
        id: item.id,
        title: item.title,
        url: item.url,
        excerpt: item.excerpt,
        post_type: item.post_type,
        score,
      })),
    },
    "searchQueries",
  );
}
