import { BlockStack, Card, DataTable, Text } from "@shopify/polaris";
import { useEffect, useRef } from "react";
import type uPlot from "uplot";
import { useAdminFormat } from "./admin-locale";

interface DaySeries {
  label: string;
  values: (number | null)[];
  color: string;
}

/**
 * One Insights chart: a line per series over the days, drawn by uPlot (a small canvas chart
 * library, loaded in the browser only), with the same figures in a table for screen readers and
 * for reading exact values.
 */
export function DayChart(props: {
  title: string;
  days: string[];
  series: DaySeries[];
  percent?: boolean;
}) {
  const { title, days, series, percent = false } = props;
  const ref = useRef<HTMLDivElement>(null);
  const f = useAdminFormat();
  useEffect(() => {
    let plot: uPlot | undefined;
    let cancelled = false;
    const format = (value: number | null) =>
      value === null ? "–" : percent ? `${Math.round(value * 100)}%` : f.number(value);
    void import("uplot").then(({ default: UPlot }) => {
      const target = ref.current;
      if (cancelled || !target) return;
      plot = new UPlot(
        {
          width: Math.max(target.clientWidth, 320),
          height: 220,
          scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(max, 1)] } },
          // The legend names the lines; exact figures are in the table below ("Time: --" otherwise).
          legend: { live: false },
          axes: [
            {
              // uPlot's own time axis writes US dates ("11/20") and hours: days only, as the page does.
              values: (_u, ticks) => ticks.map((tick) => f.tick(new Date(tick * 1000))),
              // Whole days only: uPlot's half-day steps would write each day twice.
              incrs: [86_400, 2 * 86_400, 7 * 86_400, 14 * 86_400],
            },
            {
              values: (_u, ticks) => ticks.map((tick) => format(tick)),
              // Counts are whole: no "0.5 conversations" tick.
              ...(percent
                ? {}
                : { incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000] }),
            },
          ],
          series: [
            {
              label: "Day",
              value: (_u: uPlot, value: number | null) =>
                value === null ? "–" : f.day(new Date(value * 1000)),
            },
            ...series.map((s) => ({
              label: s.label,
              stroke: s.color,
              width: 2,
              // A rate has gaps (days without conversations): its points must show alone.
              points: { show: percent || days.length <= 7 },
              value: (_u: uPlot, value: number | null) => format(value),
            })),
          ],
        },
        [days.map((day) => Date.parse(`${day}T12:00:00Z`) / 1000), ...series.map((s) => s.values)],
        target,
      );
    });
    return () => {
      cancelled = true;
      plot?.destroy();
    };
  }, [days, series, percent, f]);

  const cell = (value: number | null) =>
    value === null ? "–" : percent ? `${Math.round(value * 100)}%` : f.number(value);
  return (
    <Card>
      <BlockStack gap="200">
        <Text as="h2" variant="headingMd">
          {title}
        </Text>
        <div ref={ref} className="day-chart" aria-hidden="true" />
        <details>
          <summary>{title}: figures per day</summary>
          <DataTable
            columnContentTypes={["text", ...series.map(() => "numeric" as const)]}
            headings={["Day", ...series.map((s) => s.label)]}
            rows={days.map((day, i) => [
              f.day(`${day}T12:00:00Z`),
              ...series.map((s) => cell(s.values[i] ?? null)),
            ])}
          />
        </details>
      </BlockStack>
    </Card>
  );
}
