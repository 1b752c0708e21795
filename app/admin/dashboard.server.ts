/**
 * Everything the Dashboard shows, read in parallel and already in a merchant's words, so that the
 * route only authenticates, calls this and renders.
 */
import type { Shop, SyncRun } from "@prisma/client";
import { CHAT_EMBED_BLOCK } from "../shopify/theme-app-embed";
import { type AdminGraphql } from "../shopify/admin-graphql";
import { config } from "../config.server";
import { adminFormat, type AdminFormat } from "../format";
import { isTier, nextQuotaReset } from "../index-service/tiers";
import {
  connectionStateOf,
  withStorefrontCatalogue,
  type ConnectionState,
} from "./connection-state";
import { unreadInboxCount } from "../models/inbox.server";
import { mailStanding } from "../models/notification-mails.server";
import {
  findShop,
  isPausedByMerchant,
  storefrontWorkspaceOf,
  workspaceOf,
} from "../models/shops.server";
import { CONTENT_KINDS, indexedCount, type ContentKind } from "../models/ledger.server";
import { quotaStanding } from "../models/quota-usage.server";
import { liveStatus } from "../sync/live/status.server";
import {
  reconcileStatus,
  type ChangedProductsCheckSummary,
} from "../sync/live/changed-products-check.server";
import { latestWorkspaceMove, storefrontStanding } from "../shop/leave-former-workspace.server";
import { runProgress } from "../sync/full/run-progress.server";
import { isPausingStop } from "../shop/pause.server";
import { lastCompleteRun, recentRuns, runCounts, unfinishedRun } from "../models/sync-runs.server";
import { firstRunChecklist } from "./first-run-checklist.server";
import { quotaLinesOf } from "./service-quotas.server";
import { leftOutOf } from "./left-out.server";
import { storefrontDomainLines } from "./storefront-domains.server";

const RUNS_LISTED = 6;

const TRIGGERS: Record<string, string> = {
  install: "First sync",
  resync: "Resync",
  retry: "Retry of failed items",
  reconcile: "Daily check",
  cli: "Command line",
  "domain-change": "Domain change",
  "domain-added": "Storefront domain added",
  settings: "Settings change",
  "definition-change": "Metafield definition change",
};

export async function dashboardOf(
  shopDomain: string,
  admin: AdminGraphql,
  now: Date = new Date(),
  locale?: string,
) {
  const f = adminFormat(locale);
  // The run under way is read first, the shop and the run list after it: once a run is read as
  // over, its ending (and a pause it made) shows in them, so the page does not stop refreshing on
  // a state half written (reads in parallel may run on different connections, in any order).
  const active = await unfinishedRun(shopDomain);
  const [shop, runs, inboxUnread, mail, live, checks] = await Promise.all([
    findShop(shopDomain),
    recentRuns(shopDomain, RUNS_LISTED + 1),
    unreadInboxCount(shopDomain),
    mailStanding(shopDomain),
    liveStatus(shopDomain, now),
    reconcileStatus(shopDomain, now),
  ]);
  const workspaceId = shop ? workspaceOf(shop) : null;
  const storefrontWorkspaceId = shop ? storefrontWorkspaceOf(shop) : null;
  const last = runs.find((run) => run.state !== "running") ?? null;
  const listed = runs.slice(0, RUNS_LISTED);
  const [
    activeProgress,
    counts,
    quotas,
    indexed,
    leftOut,
    move,
    checklist,
    storefrontItems,
    storefronts,
  ] = await Promise.all([
    active ? Promise.all([runProgress(active), runCounts(active)]) : null,
    Promise.all(listed.map((run) => runCounts(run))),
    quotaLinesOf(shop, now, f),
    indexedCounts(shopDomain, workspaceId),
    // Only the newest complete run keeps the items it could not deliver (pruneRunHistory).
    Promise.all([lastCompleteRun(shopDomain), limitsOf(shop, now)]).then(([run, limits]) =>
      leftOutOf({
        shopDomain,
        workspaceId,
        run,
        limits,
        admin,
        now,
        format: f,
      }),
    ),
    moveNews(shopDomain, shop, f),
    firstRunChecklist(shopDomain, shop, admin),
    storefrontWorkspaceId ? indexedCount({ shopDomain, workspaceId: storefrontWorkspaceId }) : 0,
    storefrontDomainLines(shop, f),
  ]);
  const lastCounts = last ? (counts[listed.indexOf(last)] ?? (await runCounts(last))) : null;
  const connection: ConnectionState = shop
    ? withStorefrontCatalogue(connectionStateOf(shop), storefrontWorkspaceId, storefrontItems)
    : { kind: "not-connected", message: "This shop has not finished installing." };

  return {
    shopDomain,
    primaryDomain: shop?.primaryDomain ?? null,
    workspaceId,
    storefrontWorkspaceId,
    connection,
    /** Each storefront domain with a workspace of its own, and where it stands. */
    storefronts,
    pauseUrl: shop?.pauseUrl ?? null,
    /** The merchant's own pause ("Pause syncing"), with when it began. */
    pausedByYouSince:
      shop && isPausedByMerchant(shop) ? f.moment(shop.pausedAt ?? shop.updatedAt) : null,
    inboxUnread,
    mailTrouble: mail.failing
      ? `Notification emails are failing since ${f.moment(mail.failing.since)}: ${mail.failing.reason}. ${f.number(mail.waiting)} waiting; they are sent as soon as the mail server takes them.`
      : null,
    checklist,
    themeEditorUrl: themeEditorUrl(shopDomain),
    indexedLine: `In the index: ${f.count(indexed.product, "product")}, ${f.count(indexed.post, "page or article", "pages and articles")}.`,
    active:
      active && activeProgress ? { progress: activeProgress[0], counts: activeProgress[1] } : null,
    last:
      last && lastCounts
        ? {
            title: `Last sync: ${runTitle(last, runs)}, ${last.state === "succeeded" ? "finished" : "stopped"} ${f.moment(last.finishedAt ?? last.startedAt)}`,
            succeeded: last.state === "succeeded",
            errorMessage: last.errorMessage,
            errorUrl: last.errorUrl,
            stoppedForPause: isPausingStop(last.errorCode),
            counts: lastCounts,
          }
        : null,
    leftOut,
    quotas,
    quotaResetsOn: f.day(nextQuotaReset(now)),
    live: {
      pending: live.pending,
      oldestPendingAt: live.oldestPendingAt ? f.moment(live.oldestPendingAt) : null,
      lastAppliedAt: live.lastAppliedAt ? f.moment(live.lastAppliedAt) : null,
      retries: live.retrying ? f.count(live.retrying.count, "try", "tries") : null,
      pausedUntil: live.pausedUntil ? f.moment(live.pausedUntil) : null,
      stopped: live.workersStoppedAt ? workersStoppedLine(live.workersStoppedAt, now, f) : null,
    },
    checks: {
      last: checks.last
        ? { line: checkLine("Last check", checks.last, f), failed: checks.last.error !== null }
        : null,
      lastRepair: checks.lastRepair ? checkLine("Last repair", checks.lastRepair, f) : null,
    },
    move,
    runs: listed.map((run, index) => ({
      id: run.id,
      started: f.moment(run.startedAt),
      kind: runTitle(run, runs),
      result:
        run.state === "running"
          ? "In progress"
          : run.state === "succeeded"
            ? "Finished"
            : "Stopped",
      counts: counts[index]!,
    })),
  };
}

/**
 * "Add the chat to your theme": the theme editor with the app embed ready to switch on; in the
 * offline demo, which has no theme editor, the storefront preview with the chat.
 */
function themeEditorUrl(shopDomain: string): string {
  const env = config();
  if (env.demo?.storefrontUrl) return env.demo.storefrontUrl;
  return `https://${shopDomain}/admin/themes/current/editor?context=apps&activateAppId=${env.shopifyApiKey}/${CHAT_EMBED_BLOCK}`;
}

/**
 * What a run is called: a move says where the catalogue went (another workspace), or that it went
 * to the keys saved in Settings when the workspace stayed the same.
 */
function runTitle(run: SyncRun, runs: SyncRun[]): string {
  if (run.trigger !== "move") return TRIGGERS[run.trigger] ?? run.trigger;
  const before = runs.find((other) => other.startedAt < run.startedAt);
  return before && before.workspaceId !== run.workspaceId
    ? `Move to workspace ${run.workspaceId}`
    : "Move to the new keys' account";
}

/** The month's quota of each kind the plan works to (what left-out items were measured against). */
async function limitsOf(shop: Shop | null, now: Date): Promise<Record<ContentKind, number>> {
  const tier = shop?.tier;
  if (!shop || !isTier(tier)) return { product: 0, post: 0 };
  const [product, post] = await Promise.all(
    CONTENT_KINDS.map(
      async (kind) => (await quotaStanding(shop.shopDomain, tier, kind, now)).limit,
    ),
  );
  return { product: product ?? 0, post: post ?? 0 };
}

/** What the index holds for the shop's workspace, by kind (the ledger). */
async function indexedCounts(
  shopDomain: string,
  workspaceId: string | null,
): Promise<Record<ContentKind, number>> {
  if (!workspaceId) return { product: 0, post: 0 };
  const [product, post] = await Promise.all(
    CONTENT_KINDS.map((kind) => indexedCount({ shopDomain, workspaceId, kind })),
  );
  return { product: product ?? 0, post: post ?? 0 };
}

/** Live updates stopped: since when, and that nothing is lost meanwhile. */
function workersStoppedLine(since: Date, now: Date, f: AdminFormat): string {
  const minutes = Math.max(1, Math.floor((now.getTime() - since.getTime()) / 60_000));
  return `Live updates stopped at ${f.moment(since)}: no worker has taken the shop's changes for ${f.count(minutes, "minute")}. The changes are kept and reach the index as soon as live updates run again (the app's worker is not running).`;
}

/**
 * The latest move of the catalogue, while it is news (until another run follows it): what moved
 * (the workspace, or the keys' account), whether the old place is emptied, and that moving re-sends
 * the whole catalogue, which counts against this month's quota. A domain change whose new
 * workspace is not filled yet stays news until it is: where the catalogue is, and what is missing.
 */
async function moveNews(shopDomain: string, shop: Shop | null, f: AdminFormat) {
  const quota =
    "Moving sends every item again, so it counts against this month's quota of the account the keys belong to.";
  const standing = shop ? await storefrontStanding(shop) : null;
  if (standing?.kind === "waiting") {
    const { wait } = standing;
    const changed = `Your storefront domain changed to ${shop?.primaryDomain ?? "a new domain"}.`;
    const stays = `${changed} The catalogue stays in workspace ${standing.from} until the move can finish`;
    const held = {
      title: "Your storefront domain changed",
      tone: "warning" as const,
      quota,
    };
    switch (wait.kind) {
      case "sending":
      case "not-started":
        return {
          ...held,
          tone: "info" as const,
          text: `${changed} The catalogue is being sent to workspace ${standing.to}; until it is all there, the storefront chat keeps asking workspace ${standing.from}.`,
          oldPlace: `Workspace ${standing.from} is emptied once the chat asks ${standing.to}.`,
        };
      case "filled":
        return {
          ...held,
          tone: "info" as const,
          text: `${changed} The catalogue is in workspace ${standing.to}; the storefront chat is being pointed at it (it asks workspace ${standing.from} until then).`,
          oldPlace: `Workspace ${standing.from} is emptied once the chat asks ${standing.to}.`,
        };
      case "over-quota": {
        const missing = [
          wait.products > 0 ? f.count(wait.products, "product") : null,
          wait.posts > 0 ? f.count(wait.posts, "page or article", "pages and articles") : null,
        ]
          .filter(Boolean)
          .join(" and ");
        return {
          ...held,
          text: `${stays}: ${missing} could not be sent this month (quota resets on ${f.day(wait.resetsOn)}).`,
          oldPlace: `The storefront chat keeps asking workspace ${standing.from}, which still holds the catalogue. The move finishes with the next sync that can send the rest: Resync, or the daily check once the quota is back.`,
        };
      }
      case "stopped":
        return {
          ...held,
          text: `${stays}: the sync into workspace ${standing.to} stopped${wait.message ? ` (${wait.message})` : ""}.`,
          oldPlace: `The storefront chat keeps asking workspace ${standing.from}, which still holds the catalogue. Press Resync to finish the move.`,
        };
    }
  }
  const move = await latestWorkspaceMove(shopDomain);
  if (!move || move.followed) return null;
  const workspaceMoved = move.from !== move.to;
  const when = f.moment(move.at);
  return {
    tone: "info" as const,
    title:
      move.cause === "domain"
        ? "Your storefront domain changed"
        : workspaceMoved
          ? "The catalogue moved to another workspace"
          : "The catalogue moved to another service account",
    text: workspaceMoved
      ? `The catalogue moved from workspace ${move.from} to ${move.to} on ${when}${move.cause === "domain" ? `; the storefront chat asks workspace ${move.to}` : ""}.`
      : `The catalogue moved to the service account of the secret key saved on ${when}; the workspace stayed ${move.to}.`,
    oldPlace:
      move.leftInOldWorkspace > 0
        ? `${f.count(move.leftInOldWorkspace, "item is", "items are")} still being removed from the old workspace.`
        : move.running
          ? "The old place is being emptied."
          : "The old place has been emptied.",
    quota,
  };
}

/** "Last check 22 Nov, 18:16 UTC (changed products, 40 compared): no differences." or "…: 3 repaired: A, B, C." */
function checkLine(label: string, check: ChangedProductsCheckSummary, f: AdminFormat): string {
  const what = check.kind === "full" ? "whole store" : "changed products";
  const head = `${label} ${f.moment(check.at)} (${what}, ${f.number(check.compared)} compared)`;
  if (check.error) return `${head}: failed (${check.error}); the next check tries again.`;
  if (check.repaired === 0) return `${head}: no differences.`;
  const names = check.items.map((item) =>
    item.action === "removed" ? `${item.title} (removed)` : item.title,
  );
  const more = check.repaired > names.length ? `, and ${check.repaired - names.length} more` : "";
  return `${head}: ${f.number(check.repaired)} repaired: ${names.join(", ")}${more}.`;
}
