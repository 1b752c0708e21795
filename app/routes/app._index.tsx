import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Badge, BlockStack, Card, InlineStack, Layout, Page, Text } from "@shopify/polaris";
import { TitleBar } from "@shopify/app-bridge-react";
import { connectionStateOf, type ConnectionState } from "../models/connection-state";
import { findShop, workspaceOf } from "../models/shops.server";
import { authenticate } from "../shopify.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const shop = await findShop(session.shop);
  return {
    shopDomain: session.shop,
    primaryDomain: shop?.primaryDomain ?? null,
    workspaceId: shop ? workspaceOf(shop) : null,
    connection: shop
      ? connectionStateOf(shop)
      : ({ kind: "not-connected", message: "This shop has not finished installing." } as const),
  };
};

const BADGE_TONE: Record<ConnectionState["kind"], "success" | "attention" | "critical" | "info"> = {
  connected: "success",
  "not-connected": "attention",
  paused: "critical",
  uninstalled: "info",
};

export default function Dashboard() {
  const { shopDomain, primaryDomain, workspaceId, connection } = useLoaderData<typeof loader>();
  return (
    <Page>
      <TitleBar title="Dashboard" />
      <Layout>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <InlineStack gap="200" blockAlign="center">
                <Text as="h2" variant="headingMd">
                  Connection
                </Text>
                <Badge tone={BADGE_TONE[connection.kind]}>
                  {connection.kind.replace("-", " ")}
                </Badge>
              </InlineStack>
              <Text as="p">{connection.message}</Text>
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                Store
              </Text>
              <Text as="p">Shop: {shopDomain}</Text>
              <Text as="p">Storefront domain: {primaryDomain ?? "not read yet"}</Text>
              <Text as="p">Workspace id: {workspaceId ?? "not set yet"}</Text>
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
