/**
 * `GET /usage` (secret key): the month's use of every quota of the account at once. The spec
 * reports a quota only in the envelope of a request of that feature, and the chat and search run
 * in shoppers' browsers; this is the emulator's stand-in for the tenant/analytics endpoints whose
 * paths the spec does not show (docs/decisions/0024-service-quotas-on-the-dashboard.md).
 */
import { reply, type ApiContext } from "./context";
import { quotaUsage } from "./limits";
import { QUOTA_FEATURES } from "./tiers";

export function usageReport(context: ApiContext): void {
  const { account, now } = context;
  const quotas = Object.fromEntries(
    QUOTA_FEATURES.map((feature) => [feature, quotaUsage(account, feature, now)]),
  );
  reply(context, { quotas }, "products");
}
