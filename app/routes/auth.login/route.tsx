import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import {
  AppProvider as PolarisAppProvider,
  Button,
  Card,
  FormLayout,
  Page,
  Text,
  TextField,
} from "@shopify/polaris";
import polarisTranslations from "@shopify/polaris/locales/en.json";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import { useState } from "react";
import { login } from "../../shopify/app.server";

export const links = () => [{ rel: "stylesheet", href: polarisStyles }];

function loginErrorMessage(errors: { shop?: string } | undefined): string | undefined {
  if (!errors?.shop) return undefined;
  return errors.shop === "MISSING_SHOP"
    ? "Please enter your shop domain to log in"
    : "Please enter a valid shop domain to log in";
}

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const errors = await login(request);
  return { error: loginErrorMessage(errors as { shop?: string }) };
};

export const action = async ({ request }: ActionFunctionArgs) => {
  const errors = await login(request);
  return { error: loginErrorMessage(errors as { shop?: string }) };
};

export default function Auth() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [shop, setShop] = useState("");
  const error = actionData?.error ?? loaderData.error;

  return (
    <PolarisAppProvider i18n={polarisTranslations}>
      <Page>
        <Card>
          <Form method="post">
            <FormLayout>
              <Text variant="headingMd" as="h2">
                Log in
              </Text>
              <TextField
                type="text"
                name="shop"
                label="Shop domain"
                helpText="example.myshopify.com"
                value={shop}
                onChange={setShop}
                autoComplete="on"
                error={error}
              />
              <Button submit>Log in</Button>
            </FormLayout>
          </Form>
        </Card>
      </Page>
    </PolarisAppProvider>
  );
}
