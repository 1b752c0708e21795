import { TitleBar } from "@shopify/app-bridge-react";
import { Text } from "@shopify/polaris";
import { useEmbedded } from "./embedded";

/** The page title: Shopify admin's title bar when embedded, a heading in the offline demo. */
export function AdminTitle({ title }: { title: string }) {
  return useEmbedded() ? (
    <TitleBar title={title} />
  ) : (
    <div style={{ marginBottom: "1rem" }}>
      <Text as="h1" variant="headingLg">
        {title}
      </Text>
    </div>
  );
}
