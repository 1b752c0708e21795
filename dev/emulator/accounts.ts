/**
 * Accounts and their keys. Each documented test key pair is its own account with its own tier,
 * limits and quotas; more accounts can be passed to startEmulator.
 */
import { monthKey } from "./clock";
import {
  QUOTA_FEATURES,
  TIER_QUOTAS,
  TIER_RATE_LIMITS,
  type QuotaFeature,
  type Quotas,
  type RateLimits,
  type Tier,
} from "./tiers";

export type AccountStatus = "active" | "trial_expired" | "inactive";
export type KeyType = "secret" | "publishable";

export interface EmulatorAccountConfig {
  name: string;
  tier: Tier;
  secretKeys?: string[];
  publishableKeys?: string[];
  status?: AccountStatus;
  ownerEmail?: string;
  /** Custom limits (spec §8.4: Enterprise may have them). */
  rateLimits?: Partial<RateLimits>;
  quotas?: Partial<Quotas>;
  trialEndedAt?: string;
  /** Keys that start revoked. */
  revokedKeys?: string[];
}

export const BUILT_IN_ACCOUNTS: readonly EmulatorAccountConfig[] = [
  ...(["personal", "starter", "professional", "enterprise"] as const).map((tier) => ({
    name: tier,
    tier,
    secretKeys: [`svc_sk_test_${tier}`],
    publishableKeys: [`svc_pk_test_${tier}`],
  })),
  {
    name: "revoked",
    tier: "personal",
    secretKeys: ["svc_sk_test_revoked"],
    revokedKeys: ["svc_sk_test_revoked"],
  },
  {
    name: "trial_expired",
    tier: "personal",
    secretKeys: ["svc_sk_test_trial_expired"],
    status: "trial_expired",
    trialEndedAt: "2025-01-01T00:00:00.000Z",
  },
  {
    name: "inactive",
    tier: "starter",
    secretKeys: ["svc_sk_test_inactive"],
    status: "inactive",
  },
];

export interface KeyRecord {
  key: string;
  type: KeyType;
  account: string;
  revoked: boolean;
}

export class Account {
  tier: Tier;
  status: AccountStatus;
  readonly ownerEmail: string;
  readonly trialEndedAt: string;
  /** Fixed clock windows: the window number (time / length) and the requests counted in it. */
  readonly rate = { minute: -1, minuteCount: 0, hour: -1, hourCount: 0 };
  /** Requests refused with 429 because a window was full: each one a client that sent too many. */
  rateLimited = 0;
  usageMonth = "";
  used: Record<QuotaFeature, number> = emptyUsage();

  constructor(readonly config: EmulatorAccountConfig) {
    this.tier = config.tier;
    this.status = config.status ?? "active";
    this.ownerEmail = config.ownerEmail ?? `owner+${config.name}@example.com`;
    this.trialEndedAt = config.trialEndedAt ?? "2025-01-01T00:00:00.000Z";
  }

  get name(): string {
    return this.config.name;
  }

  get rateLimits(): RateLimits {
    return { ...TIER_RATE_LIMITS[this.tier], ...this.config.rateLimits };
  }

  get quotas(): Quotas {
    return { ...TIER_QUOTAS[this.tier], ...this.config.quotas };
  }

  /** Monthly quotas reset on the 1st at 00:00 UTC. */
  rollMonth(now: number): void {
    const month = monthKey(now);
    if (month !== this.usageMonth) {
      this.usageMonth = month;
      this.used = emptyUsage();
    }
  }

  remaining(feature: QuotaFeature, now: number): number {
    this.rollMonth(now);
    return Math.max(0, this.quotas[feature] - this.used[feature]);
  }

  consume(feature: QuotaFeature, count: number, now: number): void {
    this.rollMonth(now);
    this.used[feature] += count;
  }
}

function emptyUsage(): Record<QuotaFeature, number> {
  return Object.fromEntries(QUOTA_FEATURES.map((feature) => [feature, 0])) as Record<
    QuotaFeature,
    number
  >;
}

export class AccountBook {
  readonly accounts = new Map<string, Account>();
  readonly keys = new Map<string, KeyRecord>();

  constructor(private readonly configs: readonly EmulatorAccountConfig[]) {
    this.reset();
  }

  /** Back to the configured accounts: statuses, tiers, revocations and usage. */
  reset(): void {
    this.accounts.clear();
    this.keys.clear();
    for (const config of this.configs) {
      if (this.accounts.has(config.name)) throw new Error(`Duplicate account ${config.name}`);
      this.accounts.set(config.name, new Account(config));
      const revoked = new Set(config.revokedKeys ?? []);
      const add = (key: string, type: KeyType) => {
        if (this.keys.has(key)) throw new Error(`Key of ${config.name} is used twice`);
        this.keys.set(key, { key, type, account: config.name, revoked: revoked.has(key) });
      };
      for (const key of config.secretKeys ?? []) add(key, "secret");
      for (const key of config.publishableKeys ?? []) add(key, "publishable");
    }
  }

  lookup(key: string): { record: KeyRecord; account: Account } | undefined {
    const record = this.keys.get(key);
    const account = record && this.accounts.get(record.account);
    return record && account ? { record, account } : undefined;
  }

  setRevoked(key: string, revoked: boolean): boolean {
    const record = this.keys.get(key);
    if (!record) return false;
    record.revoked = revoked;
    return true;
  }

  account(name: string): Account | undefined {
    return this.accounts.get(name);
  }
}

/** Enough of a key to recognise it in logs; never the whole key. */
export function keyHint(key: string): string {
  const prefix = key.startsWith("svc_sk_") || key.startsWith("svc_pk_") ? key.slice(0, 7) : "";
  return key.length <= 12 ? `${prefix}…` : `${prefix}…${key.slice(-4)}`;
}
