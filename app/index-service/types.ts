import type { FEEDBACK_RATINGS, POST_TYPES, PRODUCT_STOCK_STATUSES } from "./assumptions";
import type { WebhookEventType } from "./protocol";
import type { Tier } from "./tiers";

/** A product as sent to the index: spec §2 fields plus the SDK ProductDto fields (snake_case). */
export interface IndexProduct {
  id: string;
  name: string;
  price?: number;
  categories?: string[];
  content?: string;
  excerpt?: string;
  url?: string;
  image?: string;
  sku?: string;
  /** The vendor. */
  brands?: string[];
  tags?: string[];
  regular_price?: number;
  sale_price?: number;
  /** ISO 4217 code of the prices (docs: service-gaps "Currency of prices"). */
  currency?: string;
  on_sale?: boolean;
  stock_status?: (typeof PRODUCT_STOCK_STATUSES)[number];
  stock_quantity?: number;
  status?: string;
  type?: string;
  /** Option name → values, e.g. `{Size: ["S", "M"]}`. */
  attributes?: Record<string, string[]>;
  created_at?: string;
  updated_at?: string;
  source?: string;
}

/** A post (content page or article), SDK PostDto. */
export interface IndexPost {
  id: string;
  title: string;
  content?: string;
  excerpt?: string;
  url?: string;
  post_type?: (typeof POST_TYPES)[number];
  status?: string;
  author_name?: string;
  tags?: string[];
  categories?: string[];
  featured_image?: string;
  published_at?: string;
  updated_at?: string;
  source?: string;
}

/** The success envelope of spec §2. */
export interface TierLimits {
  search: { enabled: boolean; queriesPerMonth: number };
  chat: { enabled: boolean; messagesPerMonth: number };
  [feature: string]: unknown;
}

export interface Usage {
  rateLimit: {
    remaining: { perMinute: number; perHour: number };
    /** Epoch milliseconds. */
    resetTime: number;
  };
  quota: {
    current: number;
    limit: number;
    /** YYYY-MM-DD. */
    resetDate: string;
  };
}

export type QuotaReading = Usage["quota"];

/** `GET /usage`: each quota the service reported, by the keys of USAGE_QUOTA_KEYS. */
export type UsageReport = Partial<
  Record<"products" | "posts" | "chatMessages" | "searchQueries" | "recommendations", QuotaReading>
>;

export interface Envelope<T> {
  data: T;
  tierLimits?: TierLimits;
  usage?: Usage;
}

/** What every client call resolves to. */
export interface ServiceResponse<T> extends Envelope<T> {
  /** The tier named by `tierLimits.search.queriesPerMonth`, when it names one. */
  tier?: Tier;
  status: number;
}

export interface BulkFailedItem {
  id: string;
  error: string;
}

export interface BulkResult {
  successfulIds: string[];
  failedItems: BulkFailedItem[];
  processed: number;
}

export interface SearchRequest {
  text: string;
  /** Not in the spec; the emulator honours it (default 10). */
  limit?: number;
}

export interface SearchHit {
  id: string;
  name?: string;
  price?: number;
  url?: string;
  image?: string;
  score?: number;
  [field: string]: unknown;
}

export interface SearchResults {
  results: SearchHit[];
  total: number;
  /** Pages and articles that match, beside the products (`SEARCH_POSTS_KEY`); [] when none. */
  posts: SearchHit[];
}

export type FeedbackRating = (typeof FEEDBACK_RATINGS)[number];

export interface FeedbackRequest {
  threadId: string;
  rating: FeedbackRating;
  comment?: string;
  messageIndex?: number;
}

export interface WebhookInput {
  name: string;
  url: string;
  events: WebhookEventType[];
  secret: string;
}

/** A webhook as the service returns it (fields not shown in the spec; read leniently). */
export interface WebhookRecord {
  id: string;
  name: string;
  url: string;
  events: string[];
  status?: string;
  created_at?: string;
  updated_at?: string;
  [field: string]: unknown;
}

export interface WebhookTestPayload {
  event_type: WebhookEventType;
  data: Record<string, unknown>;
}

/** The body every webhook delivery carries (spec §6.1). */
export interface WebhookDelivery<D = Record<string, unknown>> {
  id: string;
  event_type: WebhookEventType;
  created_at: string;
  data: D;
}

export interface ContactSubmittedData {
  thread_id: string;
  name: string;
  email: string;
  phone: string;
  message: string;
}
