import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { BlockStack, Button, Card, Checkbox, Layout, Page, Text } from "@shopify/polaris";
import { TitleBar } from "@shopify/app-bridge-react";
import { useState } from "react";
import { findShop, saveSyncChoices, workspaceOf } from "../models/shops.server";
import { authenticate } from "../shopify.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const shop = await findShop(session.shop);
  return {
    workspaceId: shop ? workspaceOf(shop) : null,
    syncProducts: shop?.syncProducts ?? true,
    syncPages: shop?.syncPages ?? true,
    syncArticles: shop?.syncArticles ?? true,
  };
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const form = await request.formData();
  await saveSyncChoices(session.shop, {
    syncProducts: form.get("syncProducts") === "on",
    syncPages: form.get("syncPages") === "on",
    syncArticles: form.get("syncArticles") === "on",
  });
  return { saved: true };
};

export default function Settings() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const saving = useNavigation().state === "submitting";
  const [choices, setChoices] = useState({
    syncProducts: data.syncProducts,
    syncPages: data.syncPages,
    syncArticles: data.syncArticles,
  });
  const toggle = (key: keyof typeof choices) => (checked: boolean) =>
    setChoices((c) => ({ ...c, [key]: checked }));

  return (
    <Page>
      <TitleBar title="Settings" />
      <Layout>
        <Layout.Section>
          <Card>
            <Form method="post">
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  What to sync
                </Text>
                <Text as="p" tone="subdued">
                  Workspace id: {data.workspaceId ?? "not set yet"}
                </Text>
                <Checkbox
                  label="Products"
                  name="syncProducts"
                  checked={choices.syncProducts}
                  onChange={toggle("syncProducts")}
                />
                <Checkbox
                  label="Online store pages"
                  name="syncPages"
                  checked={choices.syncPages}
                  onChange={toggle("syncPages")}
                />
                <Checkbox
                  label="Blog articles"
                  name="syncArticles"
                  checked={choices.syncArticles}
                  onChange={toggle("syncArticles")}
                />
                <Button submit variant="primary" loading={saving}>
                  Save
                </Button>
                {result?.saved && (
                  <Text as="p" tone="success">
                    Saved.
                  </Text>
                )}
              </BlockStack>
            </Form>
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
