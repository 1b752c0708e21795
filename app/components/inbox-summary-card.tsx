import { Link } from "@remix-run/react";
import { BlockStack, Card, Text } from "@shopify/polaris";

/**
 * The Dashboard's view of the Inbox: how many shopper requests are still open, and whether their
 * notification emails are failing.
 */
export function InboxSummaryCard({
  unread,
  mailTrouble,
}: {
  unread: number;
  mailTrouble: string | null;
}) {
  return (
    <Card>
      <BlockStack gap="200">
        <Text as="h2" variant="headingMd">
          Inbox
        </Text>
        <Text as="p">
          <span id="dashboard-inbox-unread">{unread}</span> open shopper request
          {unread === 1 ? "" : "s"}. <Link to="/app/inbox">Open the Inbox</Link>
        </Text>
        {mailTrouble && (
          <Text as="p" tone="critical" id="dashboard-mail-trouble">
            {mailTrouble}
          </Text>
        )}
      </BlockStack>
    </Card>
  );
}
