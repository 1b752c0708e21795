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
  InlineStack,
  Layout,
  Link,
  Page,
  ProgressBar,
  Text,
} from "@shopify/polaris";
import { useEffect } from "react";
import { dashboardAction } from "../admin/dashboard-actions.server";
import { dashboardOf } from "../admin/dashboard.server";
import { AdminTitle } from "../components/admin-title";
import { InboxSummaryCard } from "../components/inbox-summary-card";
import { LeftOutCard } from "../components/left-out-card";
import { PauseSyncing, PausedByYouBanner } from "../components/merchant-pause";
import type { ConnectionState } from "../admin/connection-state";
import { RecentSyncs } from "../components/recent-syncs";
import type { KindCounts } from "../models/sync-runs.server";
import { authenticateAdmin } from "../shopify/admin-auth.server";
import { adminFormat, adminLocaleOf } from "../format";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shopDomain, admin } = await authenticateAdmin(request);
  return dashboardOf(shopDomain, admin, new Date(), adminLocaleOf(request));
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shopDomain, admin } = await authenticateAdmin(request);
  const form = await request.formData();
  return dashboardAction(
    shopDomain,
    form.get("intent"),
    admin,
    adminFormat(adminLocaleOf(request)),
  );
};

const STOREFRONT_TONE: Record<
  "filled" | "filling" | "not filled",
  "success" | "info" | "attention"
> = { filled: "success", filling: "info", "not filled": "attention" };

const BADGE_TONE: Record<ConnectionState["kind"], "success" | "attention" | "critical" | "info"> = {
  connected: "success",
  "storefront-empty": "attention",
  "not-connected": "attention",
  paused: "critical",
  uninstalled: "info",
};

export default function Dashboard() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const submitting = useNavigation().state !== "idle";
  const revalidator = useRevalidator();
  const running = data.active !== null;
  // Keys saved and the shop not paused (the storefront's workspace may still be empty).
  const linked =
    data.connection.kind === "connected" || data.connection.kind === "storefront-empty";

  // While a run is under way the page refreshes its figures every 1.5 s.
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, 1500);
    return () => clearInterval(timer);
  }, [running, revalidator]);

  const last = data.last;
  return (
    <Page>
      <AdminTitle title="Dashboard" />
      <BlockStack gap="400">
        {data.pausedByYouSince && (
          <PausedByYouBanner since={data.pausedByYouSince} submitting={submitting} />
        )}
        {data.connection.kind === "paused" && !data.pausedByYouSince && (
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
        {/* "Resync started." is no longer news once that run paused the shop: the banner above says why. */}
        {result && !(result.tone === "success" && data.connection.kind === "paused") && (
          <Banner tone={result.tone}>
            <p id="dashboard-result">{result.message}</p>
            {result.details && result.details.length > 0 && (
              <ul aria-label="Retried items" style={{ margin: 0, paddingLeft: "1.2rem" }}>
                {result.details.map((line, index) => (
                  <li key={index}>{line}</li>
                ))}
              </ul>
            )}
          </Banner>
        )}
        {data.move && (
          <Banner tone={data.move.tone} title={data.move.title}>
            <p>{data.move.text}</p>
            <p>{data.move.oldPlace}</p>
            <p>{data.move.quota}</p>
          </Banner>
        )}
        {!data.checklist.complete && (
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                Getting started
              </Text>
              <ol aria-label="Getting started" style={{ margin: 0, paddingLeft: "1.2rem" }}>
                {data.checklist.steps.map((step) => (
                  <li key={step.id} data-step={step.id} data-done={step.done}>
                    <Text as="span" fontWeight={step.done ? "regular" : "semibold"}>
                      {step.done ? "✓ " : ""}
                      {step.label}
                      {step.done ? " (done)" : " (to do)"}
                    </Text>
                    {step.hint && (
                      <Text as="span" tone="subdued">
                        {" "}
                        {step.hint}
                      </Text>
                    )}
                  </li>
                ))}
              </ol>
            </BlockStack>
          </Card>
        )}
        <Layout>
          <Layout.Section>
            <BlockStack gap="400">
              <Card>
                <BlockStack gap="300">
                  <InlineStack align="space-between" blockAlign="center">
                    <InlineStack gap="200" blockAlign="center">
                      <Text as="h2" variant="headingMd">
                        Sync
                      </Text>
                      {/* The merchant's own pause is their choice, not a fault: no red. */}
                      <Badge
                        tone={
                          data.pausedByYouSince ? "attention" : BADGE_TONE[data.connection.kind]
                        }
                      >
                        {data.pausedByYouSince
                          ? "paused by you"
                          : data.connection.kind.replaceAll("-", " ")}
                      </Badge>
                    </InlineStack>
                    <Form method="post">
                      <input type="hidden" name="intent" value="resync" />
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
                  {(linked || data.connection.kind === "uninstalled") && (
                    <Text as="p">{data.connection.message}</Text>
                  )}
                  {linked && <PauseSyncing disabled={submitting} />}
                  <Text as="p" id="indexed">
                    {data.indexedLine}
                  </Text>
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
                      <Text as="p">{last.title}</Text>
                      {last.succeeded && <ProgressBar progress={100} tone="success" />}
                      {last.errorMessage && last.stoppedForPause ? (
                        // The pause banner says why while it lasts; once lifted it is no longer true.
                        linked && (
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
                      {last.counts.orphanLines ? (
                        <Text as="p" tone="caution">
                          {`${last.counts.orphanLines} variant, collection or media line(s) of Shopify's export came before their product and were left out of it.`}
                        </Text>
                      ) : null}
                    </BlockStack>
                  ) : (
                    <Text as="p">No sync has run yet.</Text>
                  )}
                </BlockStack>
              </Card>
              {data.leftOut && (
                <LeftOutCard
                  leftOut={data.leftOut}
                  retryDisabled={running || !linked}
                  submitting={submitting}
                />
              )}
            </BlockStack>
          </Layout.Section>
          <Layout.Section variant="oneThird">
            <BlockStack gap="400">
              <InboxSummaryCard unread={data.inboxUnread} mailTrouble={data.mailTrouble} />
              <Card>
                <BlockStack gap="200">
                  <Text as="h2" variant="headingMd">
                    Store
                  </Text>
                  <Text as="p">Shop: {data.shopDomain}</Text>
                  <Text as="p">Storefront domain: {data.primaryDomain ?? "not read yet"}</Text>
                  <Text as="p">Workspace id: {data.workspaceId ?? "not set yet"}</Text>
                  {data.storefrontWorkspaceId &&
                    data.storefrontWorkspaceId !== data.workspaceId && (
                      <Text as="p">
                        The storefront chat asks workspace {data.storefrontWorkspaceId} until the
                        move finishes.
                      </Text>
                    )}
                  <Button url={data.themeEditorUrl} target="_top">
                    Add the chat to your theme
                  </Button>
                </BlockStack>
              </Card>
              {data.storefronts.length > 0 && (
                <Card>
                  <BlockStack gap="200">
                    <Text as="h2" variant="headingMd">
                      Storefront domains
                    </Text>
                    {data.storefronts.map((storefront) => (
                      <div key={storefront.host} data-storefront={storefront.host}>
                        <InlineStack gap="200" blockAlign="center">
                          <Badge tone={STOREFRONT_TONE[storefront.state]}>{storefront.state}</Badge>
                        </InlineStack>
                        <Text as="p">{storefront.text}</Text>
                      </div>
                    ))}
                  </BlockStack>
                </Card>
              )}
              <Card>
                <BlockStack gap="200">
                  <Text as="h2" variant="headingMd">
                    Live updates
                  </Text>
                  <Text as="p">
                    <span data-testid="live-pending">{data.live.pending}</span> product change
                    {data.live.pending === 1 ? "" : "s"} waiting
                    {data.live.oldestPendingAt ? ` (oldest from ${data.live.oldestPendingAt})` : ""}
                    .
                  </Text>
                  <Text as="p">
                    Last product change sent:{" "}
                    {data.live.lastAppliedAt ?? "none since the last sync"}
                  </Text>
                  {data.live.retries && linked && (
                    <Text as="p" tone="caution">
                      The search service has not taken the latest changes yet; the app keeps trying
                      by itself ({data.live.retries} so far).
                    </Text>
                  )}
                  {data.live.stopped && (
                    <Text as="p" tone="critical">
                      <span data-testid="live-stopped">{data.live.stopped}</span>
                    </Text>
                  )}
                  {data.live.pausedUntil && (
                    <Text as="p" tone="caution">
                      Waiting until {data.live.pausedUntil} (the search service&apos;s limit).
                      {data.leftOut?.groups.some((group) => group.id === "held-for-quota")
                        ? " The new products waiting are named under “Not in the index”."
                        : ""}
                    </Text>
                  )}
                  <Text as="p" tone={data.checks.last?.failed ? "caution" : "subdued"}>
                    <span data-testid="last-check">
                      {data.checks.last?.line ??
                        "Last check: none yet (Shopify's changes are compared with the index every hour)."}
                    </span>
                  </Text>
                  {data.checks.lastRepair && (
                    <Text as="p">
                      <span data-testid="last-repair">{data.checks.lastRepair}</span>
                    </Text>
                  )}
                </BlockStack>
              </Card>
              {data.quotas.length > 0 && (
                <Card>
                  <BlockStack gap="300">
                    <Text as="h2" variant="headingMd">
                      This month&apos;s quota
                    </Text>
                    {data.quotas.map((quota) => (
                      <BlockStack gap="100" key={quota.kind}>
                        <Text as="p" id={`quota-${quota.kind}`}>
                          {quota.line}
                        </Text>
                        {quota.used !== null && (
                          <ProgressBar
                            progress={quota.percent}
                            tone={quota.level === "out" ? "critical" : "primary"}
                            size="small"
                            animated={false}
                            ariaLabelledBy={`quota-${quota.kind}`}
                          />
                        )}
                        {quota.warning && (
                          <Banner tone={quota.level === "out" ? "critical" : "warning"}>
                            <p id={`quota-${quota.kind}-warning`}>{quota.warning}</p>
                          </Banner>
                        )}
                      </BlockStack>
                    ))}
                    <Text as="p" tone="subdued" id="quota-reset">
                      The quota starts again on {data.quotaResetsOn}.
                    </Text>
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
                <RecentSyncs runs={data.runs} />
              </BlockStack>
            </Card>
          </Layout.Section>
        </Layout>
      </BlockStack>
    </Page>
  );
}

const COUNT_COLUMNS: [string, keyof KindCounts][] = [
  ["Sent", "sent"],
  ["Unchanged", "unchanged"],
  ["Removed", "deleted"],
  ["Over quota", "overQuota"],
  ["Failed", "failed"],
];

/** A run's counts, products and pages/articles apart. */
function Counts({ counts }: { counts: { products: KindCounts; posts: KindCounts } }) {
  const rows = [
    ["Products", "product", counts.products],
    ["Pages and articles", "post", counts.posts],
  ] as const;
  return (
    <table aria-label="What the sync did" style={{ borderCollapse: "collapse", width: "100%" }}>
      <thead>
        <tr>
          <th />
          {COUNT_COLUMNS.map(([label]) => (
            <th key={label} scope="col" style={{ textAlign: "right", fontWeight: 450 }}>
              {label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map(([label, kind, kindCounts]) => (
          <tr key={kind}>
            <th scope="row" style={{ textAlign: "left", fontWeight: 450 }}>
              {label}
            </th>
            {COUNT_COLUMNS.map(([column, key]) => (
              <td key={column} id={`count-${kind}-${key}`} style={{ textAlign: "right" }}>
                {kindCounts[key]}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
