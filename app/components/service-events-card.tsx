import { useFetcher } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, Text } from "@shopify/polaris";

interface ServiceEventsStatus {
  registered: boolean;
  lastError: string | null;
}

/** Settings: whether the service's events reach the app, and "Send a test event". */
export function ServiceEventsCard({ status }: { status: ServiceEventsStatus }) {
  const fetcher = useFetcher<{ ok: boolean; message: string }>();
  const sending = fetcher.state !== "idle";
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Shopper requests from the chat
        </Text>
        <Text as="p">
          {status.registered
            ? "The search service sends contact requests, handoffs and chat activity to this app: they appear in the Inbox and Insights."
            : "Not set up yet: save your keys above and the app asks the search service to send its events here."}
        </Text>
        {status.lastError && !fetcher.data && (
          <Banner tone="warning" title="The last registration failed">
            <p>{status.lastError}</p>
          </Banner>
        )}
        {fetcher.data && (
          <Banner
            tone={fetcher.data.ok ? "success" : "critical"}
            title={fetcher.data.ok ? "Test event received" : "Test event not received"}
          >
            <p>{fetcher.data.message}</p>
          </Banner>
        )}
        <fetcher.Form method="post" action="/app/events-test">
          <Button submit loading={sending}>
            Send a test event
          </Button>
        </fetcher.Form>
      </BlockStack>
    </Card>
  );
}
