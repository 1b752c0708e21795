import { BlockStack, DataTable, Text } from "@shopify/polaris";
import type { AdminFormat } from "../format";
import { useAdminFormat } from "./admin-locale";
import type { KindCounts } from "../models/sync-runs.server";

interface RunRow {
  id: string | number;
  started: string;
  kind: string;
  result: string;
  counts: { products: KindCounts; posts: KindCounts };
}

function columnsOf({ products, posts }: RunRow["counts"], format: AdminFormat) {
  const both = (productCount: number, postCount: number) =>
    [
      format.count(productCount, "product"),
      format.count(postCount, "page or article", "pages and articles"),
    ] as const;
  return [
    ["Sent", both(products.sent, posts.sent)],
    ["Unchanged", both(products.unchanged, posts.unchanged)],
    ["Removed", both(products.deleted, posts.deleted)],
    ["Left out", both(products.overQuota + products.failed, posts.overQuota + posts.failed)],
  ] as const;
}

/** Polaris's `smDown` breakpoint, as CSS: the server's page is already right on a phone. */
const LAYOUT = `@media (max-width: 47.9975em) { .recent-syncs-wide { display: none } }
@media (min-width: 48em) { .recent-syncs-narrow { display: none } }`;

/**
 * The Dashboard's recent syncs: a table on a wide screen (each count on two short lines, so it
 * fits at 1280 px), and one short block per run on a phone, where seven columns cannot fit. Both
 * are rendered and CSS shows one: a breakpoint hook would only know the width after hydration,
 * so a phone would first get the wide table.
 */
export function RecentSyncs({ runs }: { runs: RunRow[] }) {
  const format = useAdminFormat();
  return (
    <>
      <style>{LAYOUT}</style>
      <div className="recent-syncs-narrow">
        <BlockStack gap="300">
          {runs.map((run) => (
            <BlockStack gap="050" key={run.id}>
              <Text as="p" fontWeight="semibold">
                {run.kind}: {run.result}
              </Text>
              <Text as="p" tone="subdued">
                Started {run.started}
              </Text>
              {columnsOf(run.counts, format).map(([label, [products, posts]]) => (
                <Text as="p" key={label}>
                  {label}: {products}, {posts}
                </Text>
              ))}
            </BlockStack>
          ))}
        </BlockStack>
      </div>
      <div className="recent-syncs-wide">
        <DataTable
          columnContentTypes={["text", "text", "text", "text", "text", "text", "text"]}
          headings={["Started", "Kind", "Result", "Sent", "Unchanged", "Removed", "Left out"]}
          rows={runs.map((run) => [
            run.started,
            run.kind,
            run.result,
            ...columnsOf(run.counts, format).map(([label, [products, posts]]) => (
              <span key={label}>
                {products}
                <br />
                {posts}
              </span>
            )),
          ])}
        />
      </div>
    </>
  );
}
