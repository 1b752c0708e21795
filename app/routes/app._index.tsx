import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import {
  Form,
  useActionData,
  useLoaderData,
  useNavigation,
  useRevalidator,
} from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Button,
  Card,
  DataTable,
  InlineGrid,
  InlineStack,
  Layout,
  Link,
  Page,
  ProgressBar,
  Text,
} from "@shopify/polaris";
import { useEffect } from "react";
import { AdminTitle } from "../components/admin-title";
import { InboxSummaryCard } from "../components/inbox-summary-card";
import { unreadInboxCount } from "../models/inbox.server";
import { config } from "../config.server";
import { isTier } from "../index-service/tiers";
import { connectionStateOf, type ConnectionState } from "../models/connection-state";
import { findShop, workspaceOf } from "../models/shops.server";
import { authenticateAdmin } from "../shopify-admin.server";
import { CONTENT_KINDS } from "../sync/content-kinds";
import { quotaStanding } from "../sync/quota-usage.server";
import { runProgress } from "../sync/run-progress.server";
import { isPausingStop } from "../sync/stop-reasons";
import { ShopNotConnectedError } from "../sync/shop-service.server";
import { latestWorkspaceMove } from "../sync/live/domain-change.server";
import { liveStatus } from "../sync/live/status.server";
import { NothingChosenError, startShopSync } from "../sync/shop-sync.server";
import { recentRuns, runCounts, RunInProgressError, unfinishedRun } from "../sync/sync-runs.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shopDomain } = await authenticateAdmin(request);
  const shop = await findShop(shopDomain);
  const active = await unfinishedRun(shopDomain);
  const runs = await recentRuns(shopDomain, 6);
  const now = new Date();
  const tier = shop?.tier;
  return {
    shopDomain,
    primaryDomain: shop?.primaryDomain ?? null,
    workspaceId: shop ? workspaceOf(shop) : null,
    connection: shop
      ? connectionStateOf(shop)
      : ({ kind: "not-connected", message: "This shop has not finished installing." } as const),
    pauseUrl: shop?.pauseUrl ?? null,
    inboxUnread: await unreadInboxCount(shopDomain),
    themeEditorUrl: `https://${shopDomain}/admin/themes/current/editor?context=apps&activateAppId=${config().shopifyApiKey}/chat-widget`,
    active: active
      ? { id: active.id, progress: await runProgress(active), counts: await runCounts(active) }
      : null,
    quotas: isTier(tier)
      ? await Promise.all(CONTENT_KINDS.map((kind) => quotaStanding(shopDomain, tier, kind, now)))
      : [],
    live: await liveStatus(shopDomain, now).then((status) => ({
      pending: status.pending,
      oldestPendingAt: status.oldestPendingAt?.toISOString() ?? null,
      lastAppliedAt: status.lastAppliedAt?.toISOString() ?? null,
      retrying: status.retrying,
      pausedUntil: status.pausedUntil?.toISOString() ?? null,
    })),
    move: await latestWorkspaceMove(shopDomain).then((move) =>
      move
        ? {
            cause: move.cause,
            from: move.from,
            to: move.to,
            at: move.at.toISOString(),
            leftInOldWorkspace: move.leftInOldWorkspace,
          }
        : null,
    ),
    runs: await Promise.all(
      runs.map(async (run) => ({
        id: run.id,
        trigger: run.trigger,
        state: run.state,
        startedAt: run.startedAt.toISOString(),
        finishedAt: run.finishedAt?.toISOString() ?? null,
        errorMessage: run.errorMessage,
        errorUrl: run.errorUrl,
        stoppedForPause: isPausingStop(run.errorCode),
        counts: await runCounts(run),
      })),
    ),
  };
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shopDomain } = await authenticateAdmin(request);
  try {
    await startShopSync(shopDomain, "resync");
    return { message: "Resync started.", tone: "success" as const };
  } catch (error) {
    if (error instanceof RunInProgressError) {
      return {
        message: "A sync is already in progress for this shop; its progress is shown below.",
        tone: "info" as const,
      };
    }
    if (error instanceof NothingChosenError) {
      return {
        message:
          "Nothing is chosen to sync: tick Products, Online store pages or Blog articles in Settings, then press Resync.",
        tone: "warning" as const,
      };
    }
    if (error instanceof ShopNotConnectedError) {
      return {
        message: "Add the search service's keys in Settings first.",
        tone: "warning" as const,
      };
    }
    throw error;
  }
};

const BADGE_TONE: Record<ConnectionState["kind"], "success" | "attention" | "critical" | "info"> = {
  connected: "success",
  "not-connected": "attention",
  paused: "critical",
  uninstalled: "info",
};

const TRIGGERS: Record<string, string> = {
  install: "First sync",
  resync: "Resync",
  reconcile: "Daily check",
  cli: "Command line",
  "domain-change": "Domain change",
  move: "Move to new keys",
};

export default function Dashboard() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const submitting = useNavigation().state !== "idle";
  const revalidator = useRevalidator();
  const running = data.active !== null;

  // While a run is under way the page refreshes its figures every 1.5 s.
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, 1500);
    return () => clearInterval(timer);
  }, [running, revalidator]);

  const last = data.runs.find((run) => run.state !== "running");
  return (
    <Page>
      <AdminTitle title="Dashboard" />
      <BlockStack gap="400">
        {data.connection.kind === "paused" && (
          <Banner tone="critical" title="Sync is paused">
            <p>{data.connection.reason}</p>
            <InlineStack gap="200">
              {data.pauseUrl && (
                <Button url={data.pauseUrl} target="_blank">
                  Choose a plan
                </Button>
              )}
              <Button url="/app/settings">Open Settings</Button>
            </InlineStack>
          </Banner>
        )}
        {data.connection.kind === "not-connected" && (
          <Banner tone="warning" title="Connect the search service">
            <p>{data.connection.message}</p>
            <Button url="/app/settings">Open Settings</Button>
          </Banner>
        )}
        {result && <Banner tone={result.tone}>{result.message}</Banner>}
        {data.move && (
          <Banner
            tone="info"
            title={
              data.move.cause === "domain"
                ? "Your storefront domain changed"
                : "The catalogue moved to the workspace saved in Settings"
            }
          >
            <p>
              The catalogue moved from workspace {data.move.from} to {data.move.to} on{" "}
              {new Date(data.move.at).toLocaleString()}.{" "}
              {data.move.leftInOldWorkspace > 0
                ? `${data.move.leftInOldWorkspace} items are still being removed from the old workspace.`
                : "The old workspace has been emptied."}
            </p>
          </Banner>
        )}
        <Layout>
          <Layout.Section>
            <Card>
              <BlockStack gap="300">
                <InlineStack align="space-between" blockAlign="center">
                  <InlineStack gap="200" blockAlign="center">
                    <Text as="h2" variant="headingMd">
                      Sync
                    </Text>
                    <Badge tone={BADGE_TONE[data.connection.kind]}>
                      {data.connection.kind.replace("-", " ")}
                    </Badge>
                  </InlineStack>
                  <Form method="post">
                    <Button
                      submit
                      variant="primary"
                      loading={submitting}
                      disabled={data.connection.kind === "not-connected"}
                    >
                      Resync
                    </Button>
                  </Form>
                </InlineStack>
                {(data.connection.kind === "connected" ||
                  data.connection.kind === "uninstalled") && (
                  <Text as="p">{data.connection.message}</Text>
                )}
                {data.active ? (
                  <BlockStack gap="200">
                    <Text as="p" variant="bodyMd" fontWeight="semibold">
                      <span data-testid="sync-phase">{data.active.progress.label}</span>
                      {data.active.progress.total > 0
                        ? `: ${data.active.progress.done} of ${data.active.progress.total} ${data.active.progress.unit}`
                        : ""}
                      {` (${data.active.progress.percent}% of the whole sync)`}
                    </Text>
                    <ProgressBar progress={data.active.progress.percent} tone="primary" />
                    <Counts counts={data.active.counts} />
                  </BlockStack>
                ) : last ? (
                  <BlockStack gap="200">
                    <Text as="p">
                      Last sync: {TRIGGERS[last.trigger] ?? last.trigger},{" "}
                      {last.state === "succeeded" ? "finished" : "stopped"}{" "}
                      {last.finishedAt ? new Date(last.finishedAt).toLocaleString() : ""}
                    </Text>
                    {last.state === "succeeded" && <ProgressBar progress={100} tone="success" />}
                    {last.errorMessage && last.stoppedForPause ? (
                      // The pause banner says why while it lasts; once lifted it is no longer true.
                      data.connection.kind === "connected" && (
                        <Text as="p" tone="subdued">
                          What stopped it has been fixed since. Press Resync to bring the index up
                          to date.
                        </Text>
                      )
                    ) : last.errorMessage ? (
                      <Banner tone="critical">
                        <p>{last.errorMessage}</p>
                        {last.errorUrl && (
                          <Link url={last.errorUrl} target="_blank">
                            Choose a plan
                          </Link>
                        )}
                      </Banner>
                    ) : null}
                    <Counts counts={last.counts} />
                  </BlockStack>
                ) : (
                  <Text as="p">No sync has run yet.</Text>
                )}
              </BlockStack>
            </Card>
          </Layout.Section>
          <Layout.Section variant="oneThird">
            <BlockStack gap="400">
              <InboxSummaryCard unread={data.inboxUnread} />
              <Card>
                <BlockStack gap="200">
                  <Text as="h2" variant="headingMd">
                    Store
                  </Text>
                  <Text as="p">Shop: {data.shopDomain}</Text>
                  <Text as="p">Storefront domain: {data.primaryDomain ?? "not read yet"}</Text>
                  <Text as="p">Workspace id: {data.workspaceId ?? "not set yet"}</Text>
                  <Button url={data.themeEditorUrl} target="_top">
                    Add the chat to your theme
                  </Button>
                </BlockStack>
              </Card>
              <Card>
                <BlockStack gap="200">
                  <Text as="h2" variant="headingMd">
                    Live updates
                  </Text>
                  <Text as="p">
                    <span data-testid="live-pending">{data.live.pending}</span> product change
                    {data.live.pending === 1 ? "" : "s"} waiting
                    {data.live.oldestPendingAt
                      ? ` (oldest from ${new Date(data.live.oldestPendingAt).toLocaleTimeString()})`
                      : ""}
                    .
                  </Text>
                  <Text as="p">
                    Last product change sent:{" "}
                    {data.live.lastAppliedAt
                      ? new Date(data.live.lastAppliedAt).toLocaleString()
                      : "none since the last sync"}
                  </Text>
                  {data.live.retrying && data.connection.kind === "connected" && (
                    <Text as="p" tone="caution">
                      The search service has not taken the latest changes yet; the app keeps trying
                      by itself ({data.live.retrying.count}{" "}
                      {data.live.retrying.count === 1 ? "try" : "tries"} so far).
                    </Text>
                  )}
                  {data.live.pausedUntil && (
                    <Text as="p" tone="caution">
                      Waiting until {new Date(data.live.pausedUntil).toLocaleString()} (the search
                      service's limit).
                    </Text>
                  )}
                </BlockStack>
              </Card>
              {data.quotas.length > 0 && (
                <Card>
                  <BlockStack gap="300">
                    <Text as="h2" variant="headingMd">
                      This month's quota
                    </Text>
                    {data.quotas.map((quota) => (
                      <BlockStack gap="100" key={quota.kind}>
                        <Text as="p">
                          {quota.kind === "product" ? "Products" : "Pages and articles"}:{" "}
                          {quota.used} of {quota.limit}
                        </Text>
                        <ProgressBar
                          progress={
                            quota.limit > 0 ? Math.min(100, (quota.used / quota.limit) * 100) : 100
                          }
                          tone={quota.remaining === 0 ? "critical" : "primary"}
                          size="small"
                        />
                      </BlockStack>
                    ))}
                  </BlockStack>
                </Card>
              )}
            </BlockStack>
          </Layout.Section>
          <Layout.Section>
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  Recent syncs
                </Text>
                <DataTable
                  columnContentTypes={[
                    "text",
                    "text",
                    "text",
                    "numeric",
                    "numeric",
                    "numeric",
                    "numeric",
                    "numeric",
                  ]}
                  headings={[
                    "Started",
                    "Kind",
                    "Result",
                    "Sent",
                    "Unchanged",
                    "Removed",
                    "Over quota",
                    "Failed",
                  ]}
                  rows={data.runs.map((run) => {
                    const c = run.counts;
                    return [
                      new Date(run.startedAt).toLocaleString(),
                      TRIGGERS[run.trigger] ?? run.trigger,
                      run.state === "running"
                        ? "In progress"
                        : run.state === "succeeded"
                          ? "Finished"
                          : "Stopped",
                      c.products.sent + c.posts.sent,
                      c.products.unchanged + c.posts.unchanged,
                      c.products.deleted + c.posts.deleted,
                      c.products.overQuota + c.posts.overQuota,
                      c.products.failed + c.posts.failed,
                    ];
                  })}
                />
              </BlockStack>
            </Card>
          </Layout.Section>
        </Layout>
      </BlockStack>
    </Page>
  );
}

type KindCounts = {
  sent: number;
  unchanged: number;
  deleted: number;
  overQuota: number;
  failed: number;
};

function Counts({ counts }: { counts: { products: KindCounts; posts: KindCounts } }) {
  const cells: [string, keyof KindCounts][] = [
    ["Sent", "sent"],
    ["Unchanged", "unchanged"],
    ["Removed", "deleted"],
    ["Over quota", "overQuota"],
    ["Failed", "failed"],
  ];
  return (
    <InlineGrid columns={5} gap="200">
      {cells.map(([label, key]) => (
        <BlockStack key={key} gap="050">
          <Text as="span" tone="subdued">
            {label}
          </Text>
          <Text as="span" variant="headingMd" id={`count-${key}`}>
            {counts.products[key] + counts.posts[key]}
          </Text>
        </BlockStack>
      ))}
    </InlineGrid>
  );
}
