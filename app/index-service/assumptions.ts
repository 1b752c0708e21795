/**
 * Every choice the app makes where the service's specification says "not shown"
 * (see docs/reference/service-gaps.md). Each one is a named constant here and nowhere else, so
 * that a wrong guess is corrected in one line. docs/index-service.md lists them under
 * "Assumptions about the service".
 */

/** Bulk upsert and bulk delete take 1–100 items (service OpenAPI). */
export const BULK_MAX_ITEMS = 100;

/** On HTTP 413 a bulk batch is split in half and each half is sent again (see ./bulk). */
export const SPLIT_BULK_BATCH_ON_413 = true;

/** Spec §4 says `{products: [...]}`; the public SDK sends `{entities: [...]}`. */
export const PRODUCTS_BULK_BODY_KEY = "products";

/** By analogy with the products key (SDK route `/posts/bulk`). */
export const POSTS_BULK_BODY_KEY = "posts";

/** `DELETE /products/bulk` and `DELETE /posts/bulk` with `{ids: [...]}` (SDK). */
export const BULK_DELETE_BODY_KEY = "ids";

/** The fields of a bulk result inside `data` (SDK v2). */
export const BULK_RESULT_FIELDS = {
  successfulIds: "successfulIds",
  failedItems: "failedItems",
  processed: "processed",
} as const;

/**
 * Routes. The spec shows search, product upsert, product bulk, chat, webhook create and webhook
 * test; the rest are the SDK's routes (posts, get, delete, bulk delete, feedback, webhook CRUD).
 */
export const ROUTES = {
  productsSearch: "/products/search",
  products: "/products",
  productsBulk: "/products/bulk",
  product: (id: string) => `/products/${encodeURIComponent(id)}`,
  posts: "/posts",
  postsBulk: "/posts/bulk",
  post: (id: string) => `/posts/${encodeURIComponent(id)}`,
  chat: "/chat",
  feedback: "/feedback",
  webhooks: "/webhooks",
  webhook: (id: string) => `/webhooks/${encodeURIComponent(id)}`,
  webhookTest: (id: string) => `/webhooks/${encodeURIComponent(id)}/test`,
  usage: "/usage",
} as const;

/**
 * `GET /usage` (secret key) answers the month's use of every quota at once, in `data.quotas`
 * under these keys, each `{current, limit, resetDate}` as `usage.quota` (spec §2). Not in the
 * spec (its tenant and analytics endpoints are "not shown"); a service without it answers 404 and
 * the Dashboard shows what the envelopes reported (docs/decisions/0024).
 */
export const USAGE_QUOTA_KEYS = {
  products: "products",
  posts: "posts",
  chatMessages: "chatMessages",
  searchQueries: "searchQueries",
  recommendations: "recommendations",
} as const;

/** The 429 body's top-level `retryAfter` is in seconds (docs example `"retryAfter": 30`). */
export const RETRY_AFTER_UNIT_MS = 1_000;

/** Honour a standard `Retry-After` header too, and wait for the larger of the two. */
export const HONOUR_RETRY_AFTER_HEADER = true;

/** Our own choice when a 429 carries neither: wait out a whole minute window. */
export const DEFAULT_RETRY_AFTER_MS = 60_000;

/**
 * Our own choice: the longest wait honoured, from a 429 or a `resetTime`. The service's longest
 * window is an hour (spec §2); a longer or malformed value (years, 1e300) is taken as this, then
 * the service is asked again.
 */
export const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1_000;

/** `usage.rateLimit.resetTime` is epoch milliseconds (spec §2, stated; kept here for the unit). */
export const RATE_LIMIT_RESET_TIME_UNIT_MS = 1;

/** A content write without X-Workspace-ID: 400 with the §7 error body. */
export const WORKSPACE_REQUIRED_STATUS = 400;
export const WORKSPACE_REQUIRED_CODE = "WORKSPACE_REQUIRED";

/** The 402 body carries these top-level fields next to `error` (SDK client). */
export const TRIAL_EXPIRED_CODE = "TRIAL_EXPIRED";
export const TRIAL_EXPIRED_FIELDS = {
  trialEndedAt: "trial_ended_at",
  upgradeUrl: "upgrade_url",
} as const;

/** The codes of a 403; a spent monthly quota is a 403 too (a 429 means the rate limit). */
export const FORBIDDEN_CODES = {
  forbidden: "FORBIDDEN",
  subscriptionInactive: "SUBSCRIPTION_INACTIVE",
  quotaExceeded: "QUOTA_EXCEEDED",
} as const;
export const QUOTA_EXCEEDED_STATUS = 403;

/** The field of the success envelope that names the tier (see tierFromSearchQueriesPerMonth). */
export const TIER_DETECTION_FIELD = "tierLimits.search.queriesPerMonth";

/** SDK ProductDto `stock_status` values and the `source` the app writes. */
export const PRODUCT_STOCK_STATUSES = ["instock", "outofstock", "onbackorder"] as const;
export const CONTENT_SOURCE = "shopify";

/** SDK PostDto `post_type` values. */
export const POST_TYPES = ["page", "article"] as const;

/**
 * The shape of search results inside `data` is not shown: the client accepts `data` as a list, or
 * the first of these keys that holds a list.
 */
export const SEARCH_RESULT_LIST_KEYS = ["results", "products", "hits", "items"] as const;

/**
 * A search's matching pages and articles, beside the products: the storefront's search box shows
 * them (widget/search.ts), and the Settings key check finds its test page there.
 */
export const SEARCH_POSTS_KEY = "posts";

/** Extra chat request fields the SDK sends in the body. */
export const CHAT_REQUEST_STREAM_KEY = "stream";
export const OFFER_RESPONSE_KEY = "offerResponse";

/**
 * A non-streamed chat reply (`stream: false`) is not shown either: the client reads `data` as a
 * {@link ChatReply} (text, products, posts, prompts, offer, offerResult) and fills what is missing.
 */
export const CHAT_REPLY_TEXT_KEYS = ["text", "message", "answer"] as const;

/** Progress objects: show `message` (or `label`) when it is a string, else a generic indicator. */
export const PROGRESS_TEXT_KEYS = ["message", "label"] as const;

/** `prompts` items are strings in the spec and `{prompt}` objects in the SDK: accept both. */
export const PROMPT_OBJECT_TEXT_KEY = "prompt";

/** A chunk may carry `metadata: {source: "ai" | "human", agentName, agentAvatar}`. */
export const CHUNK_METADATA_KEY = "metadata";

/**
 * Chunk types beyond spec §6.4 (the SDK also knows analytics, usage, metadata,
 * orchestration_interrupted): "ignore" drops them; "pass" yields them as `{type: "unknown"}`.
 */
export const UNKNOWN_CHAT_EVENTS: "ignore" | "pass" = "ignore";

/** Thread ids are client-made, stable per browser session, never empty. */
export const THREAD_ID_PREFIX = "web_";

/** `POST /feedback` ratings (SDK). */
export const FEEDBACK_RATINGS = ["positive", "negative"] as const;

/**
 * A bulk delete lists ids the service does not hold as failed items whose error starts with this
 * code (the emulator's reading of the SDK's per-item errors): for a delete, that item is gone.
 */
export const BULK_DELETE_NOT_FOUND_CODE = "NOT_FOUND";

/**
 * How soon an item just written is found by a search is not shown: the Settings key check (the
 * publishable key must find the test page the secret key wrote) searches this many times, this
 * far apart.
 */
export const WRITE_VISIBLE_SEARCH_ATTEMPTS = 4;
export const WRITE_VISIBLE_SEARCH_EVERY_MS = 500;

/**
 * The shape of an API key, checked before the key is sent: not shown (spec §5 gives only the
 * prefixes). A bearer token of printable ASCII without spaces (RFC 6750), at most 256 characters.
 */
export const API_KEY_MAX_LENGTH = 256;
export const API_KEY_CHARACTERS = /^[\x21-\x7e]+$/;
