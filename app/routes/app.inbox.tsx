import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData, useNavigation, useRevalidator } from "@remix-run/react";
import {
  Badge,
  BlockStack,
  Button,
  Card,
  EmptyState,
  InlineStack,
  Layout,
  Page,
  Text,
} from "@shopify/polaris";
import { useEffect } from "react";
import { AdminTitle } from "../components/admin-title";
import { SegmentedLinks } from "../components/segmented-links";
import { inboxPage, updateInboxEntry } from "../admin/inbox-page.server";
import { authenticateAdmin } from "../shopify/admin-auth.server";
import { adminLocaleOf } from "../format";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shopDomain } = await authenticateAdmin(request);
  return inboxPage(
    shopDomain,
    new URL(request.url).searchParams.get("state"),
    adminLocaleOf(request),
  );
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { shopDomain } = await authenticateAdmin(request);
  const form = await request.formData();
  return updateInboxEntry(shopDomain, String(form.get("threadId") ?? ""), form.get("intent"));
};

const REFRESH_MS = 5_000;

const FILTER_LABELS = {
  open: "Open",
  requested: "Requested",
  accepted: "Accepted",
  resolved: "Resolved",
  handled: "Handled",
  all: "All",
} as const;

const STATE_BADGES = {
  none: { tone: "info", label: "Contact request" },
  requested: { tone: "attention", label: "Handoff requested" },
  accepted: { tone: "success", label: "Handoff accepted" },
  resolved: { tone: undefined, label: "Handoff resolved" },
} as const;

export default function Inbox() {
  const { filter, entries, unread } = useLoaderData<typeof loader>();
  const busy = useNavigation().state !== "idle";
  const revalidator = useRevalidator();
  // New requests show up without a reload: the page (and the nav's count) refresh every 5 s.
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === "visible" && revalidator.state === "idle") {
        revalidator.revalidate();
      }
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, [revalidator]);
  return (
    <Page>
      <AdminTitle title="Inbox" />
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            <Text as="p">
              Contact requests and handoffs from your store&apos;s chat, newest first.{" "}
              <b id="inbox-unread">{unread}</b> open.
            </Text>
            <SegmentedLinks
              label="Filter by state"
              current={filter}
              options={Object.entries(FILTER_LABELS).map(([value, label]) => ({
                value,
                label,
                url: `?state=${value}`,
              }))}
            />
            {entries.length === 0 ? (
              <Card>
                <EmptyState heading="Nothing here" image="">
                  <p>
                    When a shopper asks for a person or leaves their contact details in the chat, it
                    appears here.
                  </p>
                </EmptyState>
              </Card>
            ) : (
              <ul aria-label="Requests" style={{ listStyle: "none", margin: 0, padding: 0 }}>
                {entries.map((entry) => {
                  const badge = STATE_BADGES[entry.handoffState];
                  return (
                    <li key={entry.threadId} style={{ marginBottom: "1rem" }}>
                      <Card>
                        <BlockStack gap="200">
                          <InlineStack gap="200" blockAlign="center">
                            <Text as="h2" variant="headingMd">
                              {entry.name ?? "Name not given"}
                            </Text>
                            <Badge tone={badge.tone}>{badge.label}</Badge>
                            {entry.handled ? <Badge>Handled</Badge> : <Badge tone="new">New</Badge>}
                          </InlineStack>
                          <Text as="p">
                            Email: {entry.email ?? "not given"} · Phone:{" "}
                            {entry.phone ?? "not given"}
                          </Text>
                          {entry.message && <Text as="p">“{entry.message}”</Text>}
                          <Text as="p" tone="subdued">
                            {entry.storefront
                              ? `${entry.when} · on ${entry.storefront}`
                              : entry.when}
                          </Text>
                          <InlineStack gap="200">
                            {entry.replyUrl && <Button url={entry.replyUrl}>Reply by email</Button>}
                            <Form method="post">
                              <input type="hidden" name="threadId" value={entry.threadId} />
                              <input
                                type="hidden"
                                name="intent"
                                value={entry.handled ? "reopen" : "handled"}
                              />
                              <Button
                                submit
                                disabled={busy}
                                accessibilityLabel={`${entry.handled ? "Reopen" : "Mark as handled"}: ${entry.name ?? entry.email ?? entry.when}`}
                              >
                                {entry.handled ? "Reopen" : "Mark as handled"}
                              </Button>
                            </Form>
                          </InlineStack>
                        </BlockStack>
                      </Card>
                    </li>
                  );
                })}
              </ul>
            )}
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
