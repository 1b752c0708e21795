import { Form } from "@remix-run/react";
import { BlockStack, Button, Card, InlineStack, Link, Text } from "@shopify/polaris";
import type { LeftOut, LeftOutItem } from "../admin/left-out.server";
import { useAdminFormat } from "./admin-locale";

/**
 * "Not in the index": each item by name, linked to it in the Shopify admin, with why, when it is
 * tried again and what the merchant can do; said once above a group when the same for all.
 */
export function LeftOutCard({
  leftOut,
  retryDisabled,
  submitting,
}: {
  leftOut: LeftOut;
  retryDisabled: boolean;
  submitting: boolean;
}) {
  const format = useAdminFormat();
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center" gap="200">
          <Text as="h2" variant="headingMd">
            Not in the index
          </Text>
          {leftOut.refused > 0 && (
            <Form method="post">
              <input type="hidden" name="intent" value="retry-failed" />
              <Button submit loading={submitting} disabled={retryDisabled}>
                Retry failed items
              </Button>
            </Form>
          )}
        </InlineStack>
        <Text as="p" id="left-out-summary">
          {leftOut.summary}
        </Text>
        {leftOut.groups.map((group) => (
          <BlockStack gap="100" key={group.id}>
            <Text as="h3" variant="headingSm">
              {group.label}
            </Text>
            <Explained why={group.why} when={group.when} todo={group.todo} />
            <ul
              aria-label={group.label}
              style={{ margin: 0, paddingLeft: "1.2rem", overflowWrap: "anywhere" }}
            >
              {group.items.map((item) => (
                <li key={item.key} data-item={item.key}>
                  <Named item={item} />
                  <Explained why={item.why} when={item.when} todo={item.todo} />
                </li>
              ))}
            </ul>
            {group.more > 0 && (
              <Text as="p" tone="subdued">
                and {format.number(group.more)} more.
              </Text>
            )}
          </BlockStack>
        ))}
      </BlockStack>
    </Card>
  );
}

function Named({ item }: { item: LeftOutItem }) {
  return (
    <Text as="span" fontWeight="semibold">
      {item.adminUrl ? (
        <Link url={item.adminUrl} target="_top">
          {item.name}
        </Link>
      ) : (
        item.name
      )}{" "}
      <Text as="span" tone="subdued">
        ({item.what})
      </Text>
    </Text>
  );
}

function Explained({ why, when, todo }: { why?: string; when?: string; todo?: string }) {
  if (!why && !when && !todo) return null;
  return (
    <BlockStack gap="050">
      {why && (
        <Text as="p" data-part="why">
          {why}
        </Text>
      )}
      {when && (
        <Text as="p" tone="subdued" data-part="when">
          {when}
        </Text>
      )}
      {todo && (
        <Text as="p" data-part="todo">
          What you can do: {todo}
        </Text>
      )}
    </BlockStack>
  );
}
