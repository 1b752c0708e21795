/** The emulator's whole in-memory state, shared by the API routes and the inspection routes. */
import { AccountBook, type EmulatorAccountConfig } from "./accounts";
import { Clock } from "./clock";
import { FaultQueue } from "./faults";
import { ContentStore } from "./store";
import { DELIVERY_TIMEOUT_MS, WebhookHub } from "./webhooks";

export interface RequestLogEntry {
  at: string;
  method: string;
  path: string;
  /** "none" without an Authorization header, "invalid" for an unknown or malformed key. */
  keyType: "secret" | "publishable" | "none" | "invalid";
  /** The start and end of the key, never the whole key. */
  keyHint?: string;
  account?: string;
  workspaceId?: string;
  status: number;
  durationMs: number;
  /** The parsed request body, when the emulator was started with `logBodies`. */
  body?: unknown;
}

export interface HandoffState {
  conversationId: string;
  status: "accepted" | "resolved";
  agent: { id: string; name: string; avatar: string };
}

export interface ThreadState {
  account: string;
  workspaceId: string | undefined;
  threadId: string;
  messages: number;
  handoff?: HandoffState;
}

export interface FeedbackRecord {
  id: string;
  account: string;
  workspaceId: string | undefined;
  threadId: string;
  rating: "positive" | "negative";
  comment?: string;
  messageIndex?: number;
  at: string;
}

export interface CoreOptions {
  accounts: readonly EmulatorAccountConfig[];
  now?: () => number;
  tokenDelayMs: number;
  timeScale: number;
  webhookTimeoutMs?: number;
  logBodies?: boolean;
}

const MAX_LOGGED_REQUESTS = 10_000;

export class EmulatorCore {
  readonly clock: Clock;
  readonly accounts: AccountBook;
  readonly store = new ContentStore();
  readonly faults = new FaultQueue();
  /** Item ids a bulk upsert refuses one by one (in failedItems), with the reason it gives. */
  readonly refusedItems = new Map<string, string>();
  readonly hub: WebhookHub;
  readonly threads = new Map<string, ThreadState>();
  feedback: FeedbackRecord[] = [];
  requests: RequestLogEntry[] = [];
  tokenDelayMs: number;
  readonly logBodies: boolean;
  /** Chat streams being written right now. */
  activeStreams = 0;
  readonly #held = new Set<() => void>();

  constructor(options: CoreOptions) {
    this.clock = new Clock(options.now);
    this.accounts = new AccountBook(options.accounts);
    this.tokenDelayMs = options.tokenDelayMs;
    this.logBodies = options.logBodies ?? false;
    this.hub = new WebhookHub({
      clock: this.clock,
      timeScale: options.timeScale,
      timeoutMs: options.webhookTimeoutMs ?? DELIVERY_TIMEOUT_MS,
      ownerEmailOf: (name) => this.accounts.account(name)?.ownerEmail ?? "owner@example.com",
    });
  }

  logRequest(entry: RequestLogEntry): void {
    this.requests.push(entry);
    if (this.requests.length > MAX_LOGGED_REQUESTS) this.requests.shift();
  }

  thread(account: string, workspaceId: string | undefined, threadId: string) {
    const key = `${account}\u0000${workspaceId ?? ""}\u0000${threadId}`;
    let thread = this.threads.get(key);
    const isNew = thread === undefined;
    if (!thread) {
      thread = { account, workspaceId, threadId, messages: 0 };
      this.threads.set(key, thread);
    }
    return { thread, isNew };
  }

  /** A stream asked to hold ("__emulator_hold__") waits here until released. */
  hold(): Promise<void> {
    return new Promise((resolve) => {
      const release = () => {
        this.#held.delete(release);
        resolve();
      };
      this.#held.add(release);
    });
  }

  get heldStreams(): number {
    return this.#held.size;
  }

  releaseHeldStreams(): number {
    const count = this.#held.size;
    for (const release of [...this.#held]) release();
    return count;
  }

  reset(): void {
    this.accounts.reset();
    this.store.clear();
    this.faults.clear();
    this.refusedItems.clear();
    this.hub.reset();
    this.threads.clear();
    this.feedback = [];
    this.requests = [];
    this.clock.set(null);
    this.releaseHeldStreams();
  }

  close(): void {
    this.hub.close();
    this.releaseHeldStreams();
  }
}
