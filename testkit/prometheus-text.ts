/**
 * What an operator's Prometheus reads: GET /metrics (Bearer METRICS_TOKEN) parsed from the text
 * exposition format (prom-client writes it and parses none). Enough of the format for what the
 * app serves: `# HELP`/`# TYPE` lines skipped, `name{label="value",...} value [timestamp]`, label
 * values with `\\`, `\"` and `\n` escapes, `+Inf`, `-Inf` and `NaN`.
 */

export interface MetricSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$/;
const LABEL = /\s*([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"\s*,?/gy;

function unescape(value: string): string {
  return value.replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c));
}

function numberOf(text: string): number {
  if (text === "+Inf") return Infinity;
  if (text === "-Inf") return -Infinity;
  return Number(text);
}

export function parsePrometheusText(text: string): MetricSample[] {
  const samples: MetricSample[] = [];
  for (const [index, raw] of text.split("\n").entries()) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`line ${index + 1} of /metrics is not a sample: ${line}`);
    const labels: Record<string, string> = {};
    const inside = match[2] ?? "";
    LABEL.lastIndex = 0;
    let end = 0;
    for (let label = LABEL.exec(inside); label; label = LABEL.exec(inside)) {
      labels[label[1]!] = unescape(label[2]!);
      end = LABEL.lastIndex;
    }
    if (end !== inside.length) throw new Error(`line ${index + 1}: bad labels in ${line}`);
    samples.push({ name: match[1]!, labels, value: numberOf(match[3]!) });
  }
  return samples;
}

/** The sum of a metric's samples whose labels include `labels` (0 when none). */
export function sumOf(
  samples: readonly MetricSample[],
  name: string,
  labels: Record<string, string> = {},
): number {
  let total = 0;
  for (const sample of samples) {
    if (sample.name !== name) continue;
    if (Object.entries(labels).every(([key, value]) => sample.labels[key] === value)) {
      total += sample.value;
    }
  }
  return total;
}

/** GET `${base}/metrics` with the bearer token, parsed; throws unless answered 200. */
export async function scrapeProcess(base: string, token: string): Promise<MetricSample[]> {
  const answer = await fetch(`${base}/metrics`, {
    headers: { Authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(10_000),
  });
  const text = await answer.text();
  if (answer.status !== 200) throw new Error(`GET ${base}/metrics answered ${answer.status}`);
  return parsePrometheusText(text);
}

/**
 * The figures of several processes, some killed and started again, as Prometheus sums a
 * counter over restarts: each process life's last scrape counts (a killed process's counts end
 * with the scrape before the kill).
 */
export class ScrapedFigures {
  private readonly lives = new Map<string, MetricSample[]>();

  constructor(private readonly token: string) {}

  /** Scrapes one process life (e.g. `app#2`) and keeps it as that life's latest figures. */
  async scrape(life: string, base: string): Promise<MetricSample[]> {
    const samples = await scrapeProcess(base, this.token);
    this.lives.set(life, samples);
    return samples;
  }

  /** As scrape, but a failed scrape keeps the life's earlier figures and returns false. */
  async tryScrape(life: string, base: string): Promise<boolean> {
    try {
      await this.scrape(life, base);
      return true;
    } catch {
      return false;
    }
  }

  /** A counter summed over every life scraped. */
  counter(name: string, labels: Record<string, string> = {}): number {
    let total = 0;
    for (const samples of this.lives.values()) total += sumOf(samples, name, labels);
    return total;
  }

  /** A metric as one life's latest scrape shows it. */
  latest(life: string, name: string, labels: Record<string, string> = {}): number {
    return sumOf(this.lives.get(life) ?? [], name, labels);
  }
}

/** "a = b" when two readings of one figure agree (within `slack`), else "a ≠ b (DISAGREE)". */
export function agreement(
  metrics: number,
  other: number,
  slack = 0,
): { agrees: boolean; text: string } {
  const agrees = Math.abs(metrics - other) <= slack;
  const shown = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
  return {
    agrees,
    text: agrees
      ? `${shown(metrics)}${metrics === other ? "" : ` (vs ${shown(other)}, within ${slack})`}`
      : `${shown(metrics)} ≠ ${shown(other)} (DISAGREE${slack ? `, beyond ${slack}` : ""})`,
  };
}
