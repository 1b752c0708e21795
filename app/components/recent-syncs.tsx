import { BlockStack, DataTable, Text, useBreakpoints } from "@shopify/polaris";
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

/**
 * The Dashboard's recent syncs: a table on a wide screen (each count on two short lines, so it
 * fits at 1280 px), and one short block per run on a phone, where seven columns cannot fit.
 */
export function RecentSyncs({ runs }: { runs: RunRow[] }) {
  const { smDown } = useBreakpoints();
  const format = useAdminFormat();
  if (smDown) {
    return (
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
    );
  }
  return (
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
  );
}
