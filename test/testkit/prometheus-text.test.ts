/**
 * The benchmarks' reading of /metrics (testkit/prometheus-text.ts): what prom-client writes,
 * parsed back, and counters summed over a killed process's life and its successor's.
 */
import { Counter, Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { parsePrometheusText, sumOf } from "../../testkit/prometheus-text";

describe("parsePrometheusText", () => {
  it("reads back what prom-client writes: labels, escapes, histograms and +Inf", async () => {
    const registry = new Registry();
    const counter = new Counter({
      name: "t_total",
      help: "a help with \\ and\nnewline",
      labelNames: ["topic", "outcome"],
      registers: [registry],
    });
    counter.inc({ topic: 'a"b\\c', outcome: "accepted" }, 3);
    counter.inc({ topic: "products/update", outcome: "failed" });
    const histogram = new Histogram({
      name: "t_seconds",
      help: "h",
      buckets: [0.1],
      registers: [registry],
    });
    histogram.observe(0.05);
    histogram.observe(5);
    const samples = parsePrometheusText(await registry.metrics());
    expect(sumOf(samples, "t_total")).toBe(4);
    expect(sumOf(samples, "t_total", { topic: 'a"b\\c' })).toBe(3);
    expect(sumOf(samples, "t_total", { outcome: "failed" })).toBe(1);
    expect(sumOf(samples, "t_seconds_bucket", { le: "+Inf" })).toBe(2);
    expect(sumOf(samples, "t_seconds_bucket", { le: "0.1" })).toBe(1);
    expect(sumOf(samples, "t_seconds_count")).toBe(2);
    expect(sumOf(samples, "absent_total")).toBe(0);
  });

  it("refuses a line that is not a sample instead of reading a wrong figure", () => {
    expect(() => parsePrometheusText('x_total{a="1" 3')).toThrow(/line 1/);
    expect(() => parsePrometheusText("x_total{a=1} 3")).toThrow(/bad labels/);
  });
});
