import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Card, InlineGrid, Layout, Page, Text } from "@shopify/polaris";
import { useMemo } from "react";
import uplotStyles from "uplot/dist/uPlot.min.css?url";
import { AdminTitle } from "../components/admin-title";
import { SegmentedLinks } from "../components/segmented-links";
import { DayChart } from "../components/day-chart";
import { useAdminFormat } from "../components/admin-locale";
import { dailyInsights, insightPeriodOf } from "../service-events/insights.server";
import { authenticateAdmin } from "../shopify/admin-auth.server";

export const links = () => [{ rel: "stylesheet", href: uplotStyles }];

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { shopDomain } = await authenticateAdmin(request);
  return dailyInsights(shopDomain, insightPeriodOf(new URL(request.url).searchParams.get("days")));
};

const percent = (rate: number | null) => (rate === null ? "–" : `${Math.round(rate * 100)}%`);

export default function Insights() {
  const data = useLoaderData<typeof loader>();
  const f = useAdminFormat();
  const charts = useMemo(
    () => ({
      activity: [
        { label: "Conversations", values: data.conversations, color: "#2c6ecb" },
        { label: "Messages", values: data.messages, color: "#8a61c9" },
      ],
      handoffs: [{ label: "Handoff rate", values: data.handoffRate, color: "#c05717" }],
      feedback: [
        { label: "Positive", values: data.positive, color: "#29845a" },
        { label: "Negative", values: data.negative, color: "#c70a24" },
      ],
    }),
    [data],
  );
  const figures = [
    { id: "conversations", label: "Conversations", value: f.number(data.totals.conversations) },
    { id: "messages", label: "Messages", value: f.number(data.totals.messages) },
    { id: "handoff-rate", label: "Handoff rate", value: percent(data.totals.handoffRate) },
    {
      id: "feedback",
      label: "Feedback",
      value: `${f.number(data.totals.positive)} positive, ${f.number(data.totals.negative)} negative`,
    },
  ];
  return (
    <Page>
      <AdminTitle title="Insights" />
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            <SegmentedLinks
              label="Period"
              current={String(data.period)}
              options={[
                { value: "7", label: "Last 7 days", url: "?days=7" },
                { value: "30", label: "Last 30 days", url: "?days=30" },
              ]}
            />
            <InlineGrid columns={{ xs: 1, sm: 2, md: 4 }} gap="400">
              {figures.map((figure) => (
                <Card key={figure.id}>
                  <BlockStack gap="100">
                    <Text as="h2" variant="headingSm">
                      {figure.label}
                    </Text>
                    <Text as="p" variant="headingLg">
                      <span id={`insight-${figure.id}`}>{figure.value}</span>
                    </Text>
                  </BlockStack>
                </Card>
              ))}
            </InlineGrid>
            <DayChart
              title="Conversations and messages"
              days={data.days}
              series={charts.activity}
            />
            <DayChart title="Handoff rate" days={data.days} series={charts.handoffs} percent />
            <DayChart title="Feedback" days={data.days} series={charts.feedback} />
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingMd">
                  What shoppers ask most
                </Text>
                {data.topQuestions.length === 0 ? (
                  <Text as="p">No questions in this period yet.</Text>
                ) : (
                  <ol aria-label="Most asked questions">
                    {data.topQuestions.map((q) => (
                      <li key={q.question}>
                        {q.question} ({q.count})
                      </li>
                    ))}
                  </ol>
                )}
                <Text as="p" tone="subdued">
                  From the chat messages the search service reports; the same wording counts once
                  per time asked, ignoring case and punctuation.
                </Text>
              </BlockStack>
            </Card>
            {data.byStorefront.length > 0 && (
              <Card>
                <BlockStack gap="200">
                  <Text as="h2" variant="headingMd">
                    By storefront
                  </Text>
                  <ul aria-label="By storefront">
                    {data.byStorefront.map((row) => (
                      <li key={row.storefront} data-storefront={row.storefront}>
                        {row.storefront}: {f.count(row.conversations, "conversation")},{" "}
                        {f.count(row.messages, "message")}, {f.count(row.handoffs, "handoff")}
                      </li>
                    ))}
                  </ul>
                </BlockStack>
              </Card>
            )}
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
