/**
 * The service's HTTP client. Knows nothing of Shopify, imports nothing from node: (the widget may
 * use it with a publishable key). One method per operation; each call is exactly one request.
 */
import {
  BULK_DELETE_BODY_KEY,
  CHAT_REQUEST_STREAM_KEY,
  OFFER_RESPONSE_KEY,
  POSTS_BULK_BODY_KEY,
  PRODUCTS_BULK_BODY_KEY,
  ROUTES,
  SEARCH_POSTS_KEY,
  SEARCH_RESULT_LIST_KEYS,
  USAGE_QUOTA_KEYS,
} from "./assumptions";
import { normalizeBulkResult } from "./bulk";
import type { ChatEvent, OfferResponse } from "./chat-events";
import { normalizeChatReply, type ChatReply } from "./chat-reply";
import { parseEnvelope, tierOf } from "./envelope";
import {
  BadRequestError,
  IndexServiceError,
  NetworkError,
  RequestAbortedError,
  TimeoutError,
  UnexpectedResponseError,
  WorkspaceRequiredError,
  redact,
} from "./errors";
import { readChatEvents } from "./ndjson";
import {
  AUTHORIZATION_HEADER,
  JSON_CONTENT_TYPE,
  NDJSON_CONTENT_TYPE,
  WORKSPACE_HEADER,
  keyTypeOf,
  type KeyType,
} from "./protocol";
import { errorFromResponse } from "./response-errors";
import type { Tier } from "./tiers";
import type {
  BulkResult,
  Envelope,
  FeedbackRequest,
  IndexPost,
  IndexProduct,
  QuotaReading,
  SearchHit,
  SearchRequest,
  SearchResults,
  ServiceResponse,
  TierLimits,
  Usage,
  UsageReport,
  WebhookInput,
  WebhookRecord,
  WebhookTestPayload,
} from "./types";
import { workspaceIdFromDomain } from "./workspace-id";

export const DEFAULT_TIMEOUT_MS = 30_000;

/** One answer of the service (status undefined: none came), as told to the answer observer. */
export interface ServiceAnswer {
  method: string;
  path: string;
  status: number | undefined;
}

let answerObserver: ((answer: ServiceAnswer) => void) | undefined;

/**
 * Tells `observer` of every answer any client of this process gets, the one point every request
 * passes (the app's metrics, app/server/metrics.ts); the client itself stays free of them.
 */
export function observeServiceAnswers(observer: (answer: ServiceAnswer) => void): void {
  answerObserver = observer;
}

export interface IndexServiceClientOptions {
  baseUrl: string;
  apiKey: string;
  /** A workspace id or the domain it is made from (normalized with workspaceIdFromDomain). */
  workspaceId?: string;
  fetch?: typeof fetch;
  /** Until the whole answer is read; for a chat stream, until its headers arrive. */
  timeoutMs?: number;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface ChatRequest {
  message: string;
  /** Client-made, stable per browser session, never empty (e.g. `web_<random>`). */
  threadId: string;
  /** Overrides the client's workspace for this call; also sent in the body. */
  workspaceId?: string;
  visitorId?: string;
  /** The answer to a `domain_offer` of the previous reply. */
  offerResponse?: OfferResponse;
}

type Method = "GET" | "POST" | "PUT" | "DELETE";

/** required: a content write or read; refused before sending when no workspace is known. */
type WorkspaceRule = "required" | "when-known" | "never";

interface RequestSpec {
  method: Method;
  path: string;
  body?: unknown;
  workspace: WorkspaceRule;
  workspaceId?: string | undefined;
  accept?: string;
}

interface OpenedRequest {
  response: Response;
  /** Stops the timeout (a stream may then run as long as it needs). */
  stopTimer: () => void;
  /** Stops the timeout and forgets the caller's signal. */
  release: () => void;
  /** The typed error for a failure while reading the body. */
  failure: (error: unknown) => IndexServiceError;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function normalizeSearchResults(data: unknown): SearchResults {
  let list: unknown = data;
  if (isObject(data)) {
    const key = SEARCH_RESULT_LIST_KEYS.find((candidate) => Array.isArray(data[candidate]));
    list = key === undefined ? [] : data[key];
  }
  const results = (Array.isArray(list) ? list : []).filter(
    (item): item is SearchHit => isObject(item) && typeof item.id === "string",
  );
  const total = isObject(data) && typeof data.total === "number" ? data.total : results.length;
  const postList = isObject(data) ? data[SEARCH_POSTS_KEY] : undefined;
  const posts = (Array.isArray(postList) ? postList : []).filter(
    (item): item is SearchHit => isObject(item) && typeof item.id === "string",
  );
  return { results, total, posts };
}

function isQuotaReading(value: unknown): value is QuotaReading {
  return (
    isObject(value) &&
    typeof value.current === "number" &&
    Number.isFinite(value.current) &&
    typeof value.limit === "number" &&
    Number.isFinite(value.limit) &&
    typeof value.resetDate === "string"
  );
}

/** The readings of `GET /usage` that have the shape of `usage.quota`; the rest are left out. */
function normalizeUsageReport(data: unknown): UsageReport {
  const quotas = isObject(data) && isObject(data.quotas) ? data.quotas : {};
  const report: UsageReport = {};
  for (const [feature, key] of Object.entries(USAGE_QUOTA_KEYS)) {
    const reading = quotas[key];
    if (isQuotaReading(reading)) report[feature as keyof UsageReport] = reading;
  }
  return report;
}

function describeCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as Error & { cause?: unknown }).cause;
  const code = isObject(cause) && typeof cause.code === "string" ? ` (${cause.code})` : "";
  return `${error.message}${code}`;
}

export class IndexServiceClient {
  readonly baseUrl: string;
  readonly keyType: KeyType;
  readonly workspaceId: string | undefined;
  readonly timeoutMs: number;
  /** The envelope of the last successful call. */
  lastEnvelope: Envelope<unknown> | undefined;
  /** The last tierLimits and usage the service reported (kept across calls without them). */
  tierLimits: TierLimits | undefined;
  usage: Usage | undefined;

  readonly #apiKey: string;
  readonly #fetch: typeof fetch;

  constructor(options: IndexServiceClientOptions) {
    if (options.apiKey.trim() === "") throw new TypeError("IndexServiceClient needs an API key");
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.#apiKey = options.apiKey;
    this.keyType = keyTypeOf(options.apiKey);
    this.workspaceId =
      options.workspaceId === undefined ? undefined : workspaceIdFromDomain(options.workspaceId);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const customFetch = options.fetch;
    this.#fetch = customFetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** The tier named by the last tierLimits seen. */
  get tier(): Tier | undefined {
    return tierOf(this.tierLimits);
  }

  /** The same client scoped to another workspace (id or domain). */
  withWorkspace(workspaceIdOrDomain: string): IndexServiceClient {
    return new IndexServiceClient({
      baseUrl: this.baseUrl,
      apiKey: this.#apiKey,
      workspaceId: workspaceIdOrDomain,
      fetch: this.#fetch,
      timeoutMs: this.timeoutMs,
    });
  }

  // ── Search ────────────────────────────────────────────────────────────────

  search(
    request: SearchRequest | string,
    options?: CallOptions,
  ): Promise<ServiceResponse<SearchResults>> {
    const body = typeof request === "string" ? { text: request } : request;
    return this.call(
      { method: "POST", path: ROUTES.productsSearch, body, workspace: "when-known" },
      normalizeSearchResults,
      options,
    );
  }

  // ── Usage ─────────────────────────────────────────────────────────────────

  /** The month's use of every quota the service reports (ROUTES.usage; secret key). */
  usageReport(options?: CallOptions): Promise<ServiceResponse<UsageReport>> {
    return this.call(
      { method: "GET", path: ROUTES.usage, workspace: "never" },
      normalizeUsageReport,
      options,
    );
  }

  // ── Products ──────────────────────────────────────────────────────────────

  upsertProduct(product: IndexProduct, options?: CallOptions): Promise<ServiceResponse<unknown>> {
    return this.write("POST", ROUTES.products, product, options);
  }

  bulkUpsertProducts(
    products: readonly IndexProduct[],
    options?: CallOptions,
  ): Promise<ServiceResponse<BulkResult>> {
    return this.bulk("POST", ROUTES.productsBulk, { [PRODUCTS_BULK_BODY_KEY]: products }, options);
  }

  getProduct(id: string, options?: CallOptions): Promise<ServiceResponse<IndexProduct>> {
    return this.call(
      { method: "GET", path: ROUTES.product(id), workspace: "required" },
      (data) => data as IndexProduct,
      options,
    );
  }

  deleteProduct(id: string, options?: CallOptions): Promise<ServiceResponse<unknown>> {
    return this.write("DELETE", ROUTES.product(id), undefined, options);
  }

  bulkDeleteProducts(
    ids: readonly string[],
    options?: CallOptions,
  ): Promise<ServiceResponse<BulkResult>> {
    return this.bulk("DELETE", ROUTES.productsBulk, { [BULK_DELETE_BODY_KEY]: ids }, options);
  }

  // ── Posts (content pages and articles) ───────────────────────────────────

  upsertPost(post: IndexPost, options?: CallOptions): Promise<ServiceResponse<unknown>> {
    return this.write("POST", ROUTES.posts, post, options);
  }

  bulkUpsertPosts(
    posts: readonly IndexPost[],
    options?: CallOptions,
  ): Promise<ServiceResponse<BulkResult>> {
    return this.bulk("POST", ROUTES.postsBulk, { [POSTS_BULK_BODY_KEY]: posts }, options);
  }

  getPost(id: string, options?: CallOptions): Promise<ServiceResponse<IndexPost>> {
    return this.call(
      { method: "GET", path: ROUTES.post(id), workspace: "required" },
      (data) => data as IndexPost,
      options,
    );
  }

  deletePost(id: string, options?: CallOptions): Promise<ServiceResponse<unknown>> {
    return this.write("DELETE", ROUTES.post(id), undefined, options);
  }

  bulkDeletePosts(
    ids: readonly string[],
    options?: CallOptions,
  ): Promise<ServiceResponse<BulkResult>> {
    return this.bulk("DELETE", ROUTES.postsBulk, { [BULK_DELETE_BODY_KEY]: ids }, options);
  }

  // ── Chat and feedback ─────────────────────────────────────────────────────

  /**
   * Sends a chat message and resolves, once the answer's headers are in, to its events. An HTTP
   * failure (401, 429…) rejects here; a failure inside the stream is an `error` event. Iterate the
   * events to the end, or abort `options.signal`, so the connection is released.
   */
  async chatStream(
    request: ChatRequest,
    options: CallOptions = {},
  ): Promise<AsyncGenerator<ChatEvent>> {
    const spec = this.chatSpec(request, true);
    const opened = await this.open(spec, options);
    opened.stopTimer();
    const { response } = opened;
    if (!response.ok || response.body === null) {
      let text = "";
      try {
        text = await response.text();
      } catch (error) {
        throw opened.failure(error);
      } finally {
        opened.release();
      }
      if (!response.ok) throw this.responseError(spec, response, text);
      throw new UnexpectedResponseError({
        message: `POST ${spec.path} answered ${response.status} without a body`,
        status: response.status,
        method: "POST",
        path: spec.path,
      });
    }
    return this.events(response.body, options.signal, opened.release);
  }

  /** Sends a chat message with `stream: false` and resolves to the whole reply. */
  chat(request: ChatRequest, options?: CallOptions): Promise<ServiceResponse<ChatReply>> {
    return this.call(this.chatSpec(request, false), normalizeChatReply, options);
  }

  submitFeedback(
    request: FeedbackRequest,
    options?: CallOptions,
  ): Promise<ServiceResponse<unknown>> {
    return this.call(
      { method: "POST", path: ROUTES.feedback, body: request, workspace: "when-known" },
      (data) => data,
      options,
    );
  }

  // ── Webhooks ──────────────────────────────────────────────────────────────

  createWebhook(
    input: WebhookInput,
    options?: CallOptions,
  ): Promise<ServiceResponse<WebhookRecord>> {
    return this.webhookCall(
      "POST",
      ROUTES.webhooks,
      input,
      (data) => data as WebhookRecord,
      options,
    );
  }

  listWebhooks(options?: CallOptions): Promise<ServiceResponse<WebhookRecord[]>> {
    return this.webhookCall(
      "GET",
      ROUTES.webhooks,
      undefined,
      (data) => {
        const list = isObject(data) && Array.isArray(data.webhooks) ? data.webhooks : data;
        return (Array.isArray(list) ? list : []) as WebhookRecord[];
      },
      options,
    );
  }

  getWebhook(id: string, options?: CallOptions): Promise<ServiceResponse<WebhookRecord>> {
    return this.webhookCall(
      "GET",
      ROUTES.webhook(id),
      undefined,
      (data) => data as WebhookRecord,
      options,
    );
  }

  updateWebhook(
    id: string,
    changes: Partial<WebhookInput>,
    options?: CallOptions,
  ): Promise<ServiceResponse<WebhookRecord>> {
    return this.webhookCall(
      "PUT",
      ROUTES.webhook(id),
      changes,
      (data) => data as WebhookRecord,
      options,
    );
  }

  deleteWebhook(id: string, options?: CallOptions): Promise<ServiceResponse<unknown>> {
    return this.webhookCall("DELETE", ROUTES.webhook(id), undefined, (data) => data, options);
  }

  /** Asks the service to send a test delivery of the given event to the webhook. */
  testWebhook(
    id: string,
    payload: WebhookTestPayload,
    options?: CallOptions,
  ): Promise<ServiceResponse<unknown>> {
    return this.webhookCall(
      "POST",
      ROUTES.webhookTest(id),
      { test_payload: payload },
      (data) => data,
      options,
    );
  }

  // ── Plumbing ──────────────────────────────────────────────────────────────

  private write(
    method: Method,
    path: string,
    body: unknown,
    options: CallOptions | undefined,
  ): Promise<ServiceResponse<unknown>> {
    return this.call({ method, path, body, workspace: "required" }, (data) => data, options);
  }

  private bulk(
    method: Method,
    path: string,
    body: unknown,
    options: CallOptions | undefined,
  ): Promise<ServiceResponse<BulkResult>> {
    return this.call({ method, path, body, workspace: "required" }, normalizeBulkResult, options);
  }

  private webhookCall<T>(
    method: Method,
    path: string,
    body: unknown,
    parse: (data: unknown) => T,
    options: CallOptions | undefined,
  ): Promise<ServiceResponse<T>> {
    return this.call({ method, path, body, workspace: "never" }, parse, options);
  }

  private chatSpec(request: ChatRequest, stream: boolean): RequestSpec {
    if (typeof request.threadId !== "string" || request.threadId.trim() === "") {
      throw new BadRequestError({
        message: "A chat message needs a non-empty threadId",
        method: "POST",
        path: ROUTES.chat,
        requestSent: false,
      });
    }
    if (request.offerResponse === undefined && (request.message ?? "").trim() === "") {
      throw new BadRequestError({
        message: "A chat message needs a non-empty message (or an offerResponse)",
        method: "POST",
        path: ROUTES.chat,
        requestSent: false,
      });
    }
    const workspaceId =
      request.workspaceId === undefined ? undefined : workspaceIdFromDomain(request.workspaceId);
    const body: Record<string, unknown> = { message: request.message, threadId: request.threadId };
    if (workspaceId !== undefined) body.workspaceId = workspaceId;
    if (request.visitorId !== undefined) body.visitorId = request.visitorId;
    if (request.offerResponse !== undefined) body[OFFER_RESPONSE_KEY] = request.offerResponse;
    if (!stream) body[CHAT_REQUEST_STREAM_KEY] = false;
    return {
      method: "POST",
      path: ROUTES.chat,
      body,
      workspace: "when-known",
      workspaceId,
      accept: stream ? NDJSON_CONTENT_TYPE : JSON_CONTENT_TYPE,
    };
  }

  private async *events(
    body: ReadableStream<Uint8Array>,
    signal: AbortSignal | undefined,
    release: () => void,
  ): AsyncGenerator<ChatEvent> {
    try {
      yield* readChatEvents(body, signal ? { signal } : {});
    } finally {
      release();
    }
  }

  private headersFor(spec: RequestSpec): Record<string, string> {
    const headers: Record<string, string> = {
      [AUTHORIZATION_HEADER]: `Bearer ${this.#apiKey}`,
      "Content-Type": JSON_CONTENT_TYPE,
      Accept: spec.accept ?? JSON_CONTENT_TYPE,
    };
    const workspaceId = spec.workspaceId ?? this.workspaceId;
    if (spec.workspace === "required" && workspaceId === undefined) {
      throw new WorkspaceRequiredError({
        message: `${spec.method} ${spec.path} writes content and needs a workspace id; none is set`,
        method: spec.method,
        path: spec.path,
        requestSent: false,
      });
    }
    if (spec.workspace !== "never" && workspaceId !== undefined) {
      headers[WORKSPACE_HEADER] = workspaceId;
    }
    return headers;
  }

  private async open(spec: RequestSpec, options: CallOptions): Promise<OpenedRequest> {
    const headers = this.headersFor(spec);
    const signal = options.signal;
    if (signal?.aborted) throw this.transportError(spec, signal.reason, false, signal);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, options.timeoutMs ?? this.timeoutMs);
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    const stopTimer = () => clearTimeout(timer);
    const release = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    const failure = (error: unknown) => this.transportError(spec, error, timedOut, signal);
    try {
      const response = await this.#fetch(`${this.baseUrl}${spec.path}`, {
        method: spec.method,
        headers,
        body: spec.body === undefined ? null : JSON.stringify(spec.body),
        signal: controller.signal,
      });
      answerObserver?.({ method: spec.method, path: spec.path, status: response.status });
      return { response, stopTimer, release, failure };
    } catch (error) {
      answerObserver?.({ method: spec.method, path: spec.path, status: undefined });
      release();
      throw failure(error);
    }
  }

  private async call<T>(
    spec: RequestSpec,
    parse: (data: unknown) => T,
    options: CallOptions = {},
  ): Promise<ServiceResponse<T>> {
    const opened = await this.open(spec, options);
    const { response } = opened;
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw opened.failure(error);
    } finally {
      opened.release();
    }
    if (!response.ok) throw this.responseError(spec, response, text);
    let body: unknown;
    try {
      body = text === "" ? undefined : JSON.parse(text);
    } catch {
      throw new UnexpectedResponseError({
        message: `${spec.method} ${spec.path} answered ${response.status} with a body that is not JSON`,
        status: response.status,
        method: spec.method,
        path: spec.path,
      });
    }
    const envelope = parseEnvelope(body);
    this.lastEnvelope = envelope;
    if (envelope.tierLimits) this.tierLimits = envelope.tierLimits;
    if (envelope.usage) this.usage = envelope.usage;
    const result: ServiceResponse<T> = { data: parse(envelope.data), status: response.status };
    if (envelope.tierLimits) result.tierLimits = envelope.tierLimits;
    if (envelope.usage) result.usage = envelope.usage;
    const tier = tierOf(envelope.tierLimits);
    if (tier) result.tier = tier;
    return result;
  }

  private responseError(
    spec: RequestSpec,
    response: Response,
    bodyText: string,
  ): IndexServiceError {
    return errorFromResponse({
      status: response.status,
      headers: response.headers,
      bodyText,
      method: spec.method,
      path: spec.path,
      apiKey: this.#apiKey,
      now: Date.now(),
    });
  }

  private transportError(
    spec: RequestSpec,
    error: unknown,
    timedOut: boolean,
    signal: AbortSignal | undefined,
  ): IndexServiceError {
    const context = { method: spec.method, path: spec.path };
    if (timedOut) {
      return new TimeoutError({
        ...context,
        message: `${spec.method} ${spec.path} got no answer within the timeout`,
      });
    }
    if (signal?.aborted) {
      return new RequestAbortedError({
        ...context,
        message: `${spec.method} ${spec.path} was aborted`,
      });
    }
    return new NetworkError({
      ...context,
      message: redact(`${spec.method} ${spec.path} failed: ${describeCause(error)}`, this.#apiKey),
      cause: error,
    });
  }
}
