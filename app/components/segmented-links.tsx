import { Button, ButtonGroup } from "@shopify/polaris";

/**
 * A row of filters (Inbox states, Insights periods): the one in use is a pressed, highlighted
 * button (aria-pressed, so screen readers say it too); the others are links. Separate buttons,
 * not Polaris' segmented group, so they wrap onto a second line on a phone instead of running
 * off the screen.
 */
export function SegmentedLinks({
  label,
  options,
  current,
}: {
  label: string;
  options: { value: string; label: string; url: string }[];
  current: string;
}) {
  return (
    <nav aria-label={label}>
      <ButtonGroup gap="tight">
        {options.map((option) =>
          option.value === current ? (
            <Button key={option.value} pressed variant="primary">
              {option.label}
            </Button>
          ) : (
            <Button key={option.value} url={option.url}>
              {option.label}
            </Button>
          ),
        )}
      </ButtonGroup>
    </nav>
  );
}
