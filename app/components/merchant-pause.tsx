import { Form } from "@remix-run/react";
import { Banner, BlockStack, Button, InlineStack } from "@shopify/polaris";
import { useState } from "react";

/** The Dashboard's "Pause syncing", which first says what a pause does and asks. */
export function PauseSyncing({ disabled }: { disabled: boolean }) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <InlineStack>
        <Button onClick={() => setAsking(true)} disabled={disabled}>
          Pause syncing
        </Button>
      </InlineStack>
    );
  }
  return (
    <Banner tone="warning" title="Pause syncing?">
      <BlockStack gap="200">
        <p id="pause-explained">
          The index stays as it is and shoppers keep getting answers from it, but changes in your
          store are not sent to it until you resume. The changes are kept meanwhile and sent when
          you press Resume syncing.
        </p>
        <InlineStack gap="200">
          <Form method="post">
            <input type="hidden" name="intent" value="pause" />
            <Button submit variant="primary" tone="critical">
              Pause syncing now
            </Button>
          </Form>
          <Button onClick={() => setAsking(false)}>Keep syncing</Button>
        </InlineStack>
      </BlockStack>
    </Banner>
  );
}

/** The banner while the merchant's own pause holds, with the one button that lifts it. */
export function PausedByYouBanner({ since, submitting }: { since: string; submitting: boolean }) {
  return (
    <Banner tone="warning" title="Syncing is paused">
      <BlockStack gap="200">
        <p id="paused-by-you">
          Syncing is paused since {since} (you paused it). Changes in your store are kept and sent
          when you resume.
        </p>
        <Form method="post">
          <input type="hidden" name="intent" value="resume" />
          <Button submit variant="primary" loading={submitting}>
            Resume syncing
          </Button>
        </Form>
      </BlockStack>
    </Banner>
  );
}
