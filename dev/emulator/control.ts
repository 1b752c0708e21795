/**
 * The inspection and control object: what `startEmulator()` returns as `state`, and what the
 * `/__emulator/` HTTP routes expose. Never shows a whole API key or a webhook secret.
 */
import { keyHint, type Account, type AccountStatus } from "./accounts";
import { HOUR_MS, MINUTE_MS, nextMonthStart } from "./clock";
import type { EmulatorCore, FeedbackRecord, RequestLogEntry, ThreadState } from "./core";
import type { ActiveFault, FaultSpec } from "./faults";
import type { QuotaFeature, Tier } from "./tiers";
import { publicWebhook, type DeliveryRecord, type EmailRecord } from "./webhooks";

export interface AccountSnapshot {
  name: string;
  tier: Tier;
  status: AccountStatus;
  ownerEmail: string;
  keys: Array<{ type: string; hint: string; revoked: boolean }>;
  rateLimits: { perMinute: number; perHour: number };
  rateWindows: {
    minute: { start: string; count: number };
    hour: { start: string; count: number };
  };
  /** Requests refused with 429 RATE_LIMITED by the windows since start or reset (faults not counted). */
  rateLimited: number;
  quotas: Record<string, number>;
  usage: { month: string; used: Record<string, number>; resetDate: string };
}

export interface WorkspaceSnapshot {
  account: string;
  workspaceId: string;
  products: Array<Record<string, unknown>>;
  posts: Array<Record<string, unknown>>;
}

export class EmulatorControl {
  constructor(private readonly core: EmulatorCore) {}

  // Clock
  now(): number {
    return this.core.clock.now();
  }
  /** Freezes the clock (epoch ms, Date or ISO string); null goes back to the base clock. */
  setNow(time: number | string | Date | null): void {
    this.core.clock.set(time === null ? null : new Date(time).getTime());
  }
  advance(ms: number): void {
    this.core.clock.advance(ms);
  }

  // Keys and accounts
  revokeKey(key: string): boolean {
    return this.core.accounts.setRevoked(key, true);
  }
  restoreKey(key: string): boolean {
    return this.core.accounts.setRevoked(key, false);
  }
  setAccount(name: string, changes: { status?: AccountStatus; tier?: Tier }): AccountSnapshot {
    const account = this.core.accounts.account(name);
    if (!account) throw new Error(`No account ${name}`);
    if (changes.status) account.status = changes.status;
    if (changes.tier) account.tier = changes.tier;
    return this.#account(account);
  }
  /** Uses up part of an account's month, as if earlier writes had spent it. */
  spendQuota(name: string, feature: QuotaFeature, count: number): AccountSnapshot {
    const account = this.core.accounts.account(name);
    if (!account) throw new Error(`No account ${name}`);
    account.consume(feature, count, this.now());
    return this.#account(account);
  }
  accounts(): AccountSnapshot[] {
    return [...this.core.accounts.accounts.values()].map((account) => this.#account(account));
  }
  account(name: string): AccountSnapshot | undefined {
    const account = this.core.accounts.account(name);
    return account && this.#account(account);
  }

  // Faults
  injectFault(fault: FaultSpec): ActiveFault {
    return this.core.faults.add(fault);
  }
  faults(): ActiveFault[] {
    return this.core.faults.list();
  }
  clearFaults(): void {
    this.core.faults.clear();
  }
  /**
   * Bulk upserts report these item ids in failedItems with this reason (as the service does for
   * an item it cannot take) until the refusal is lifted; other items of the batch go in.
   */
  refuseItems(ids: readonly string[], reason = "VALIDATION_ERROR: item refused"): void {
    for (const id of ids) this.core.refusedItems.set(id, reason);
  }
  acceptItems(ids?: readonly string[]): void {
    if (!ids) this.core.refusedItems.clear();
    else for (const id of ids) this.core.refusedItems.delete(id);
  }

  // Content, chat, feedback
  workspaces(): WorkspaceSnapshot[] {
    return this.core.store.all().map((workspace) => ({
      account: workspace.account,
      workspaceId: workspace.id,
      products: [...workspace.products.values()],
      posts: [...workspace.posts.values()],
    }));
  }
  workspace(account: string, workspaceId: string): WorkspaceSnapshot | undefined {
    return this.workspaces().find((w) => w.account === account && w.workspaceId === workspaceId);
  }
  threads(): ThreadState[] {
    return [...this.core.threads.values()].map((thread) => ({ ...thread }));
  }
  feedback(): FeedbackRecord[] {
    return [...this.core.feedback];
  }
  /** Ends the live-agent handoff of a thread (fires handoff.resolved); returns how many ended. */
  resolveHandoff(threadId: string): number {
    let count = 0;
    for (const thread of this.core.threads.values()) {
      if (thread.threadId !== threadId || thread.handoff?.status !== "accepted") continue;
      thread.handoff.status = "resolved";
      count += 1;
      this.core.hub.emit(thread.account, "handoff.resolved", {
        thread_id: thread.threadId,
        workspace_id: thread.workspaceId ?? null,
        conversation_id: thread.handoff.conversationId,
        agent: { id: thread.handoff.agent.id, name: thread.handoff.agent.name },
      });
    }
    return count;
  }
  /** Chat streams paused by "__emulator_hold__", and a way to let them go on. */
  heldStreams(): number {
    return this.core.heldStreams;
  }
  releaseHeldStreams(): number {
    return this.core.releaseHeldStreams();
  }
  activeStreams(): number {
    return this.core.activeStreams;
  }

  // Requests, webhooks
  requests(): RequestLogEntry[] {
    return [...this.core.requests];
  }
  clearRequests(): void {
    this.core.requests = [];
  }
  webhooks() {
    return [...this.core.hub.webhooks.values()].map((webhook) => ({
      ...publicWebhook(webhook),
      account: webhook.account,
    }));
  }
  deliveries(): DeliveryRecord[] {
    return this.core.hub.deliveries.map((delivery) => ({
      ...delivery,
      attempts: [...delivery.attempts],
    }));
  }
  emails(): EmailRecord[] {
    return [...this.core.hub.emails];
  }
  /** Runs every scheduled webhook retry now. */
  flushWebhookRetries(): void {
    this.core.hub.flush();
  }
  /** Resolves when every delivery so far is delivered or failed. */
  deliveriesSettled(): Promise<void> {
    return this.core.hub.settled();
  }

  /** Back to the start: content, usage, webhooks, logs, faults, revocations, clock. */
  reset(): void {
    this.core.reset();
  }

  snapshot() {
    return {
      now: new Date(this.now()).toISOString(),
      accounts: this.accounts(),
      workspaces: this.workspaces(),
      threads: this.threads(),
      feedback: this.feedback(),
      webhooks: this.webhooks(),
      deliveries: this.deliveries(),
      emails: this.emails(),
      faults: this.faults(),
      requests: this.requests(),
    };
  }

  #account(account: Account): AccountSnapshot {
    const now = this.now();
    account.rollMonth(now);
    const minute = Math.floor(now / MINUTE_MS);
    const hour = Math.floor(now / HOUR_MS);
    return {
      name: account.name,
      tier: account.tier,
      status: account.status,
      ownerEmail: account.ownerEmail,
      keys: [...this.core.accounts.keys.values()]
        .filter((record) => record.account === account.name)
        .map((record) => ({
          type: record.type,
          hint: keyHint(record.key),
          revoked: record.revoked,
        })),
      rateLimits: account.rateLimits,
      rateWindows: {
        minute: {
          start: new Date(minute * MINUTE_MS).toISOString(),
          count: account.rate.minute === minute ? account.rate.minuteCount : 0,
        },
        hour: {
          start: new Date(hour * HOUR_MS).toISOString(),
          count: account.rate.hour === hour ? account.rate.hourCount : 0,
        },
      },
      rateLimited: account.rateLimited,
      quotas: { ...account.quotas },
      usage: {
        month: account.usageMonth,
        used: { ...account.used },
        resetDate: nextMonthStart(now),
      },
    };
  }
}
