import type { HistogramCell } from "./histogram";

/** One sample of a metric as prom-client's registry formats it. */
export interface Sample {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

/**
 * A metric the registry reads through `get()`, without prom-client's per-call label hashing:
 * the values live in our own cells and are turned into samples only when scraped.
 */
export interface CollectedMetric {
  name: string;
  help: string;
  type: "counter" | "gauge" | "histogram";
  aggregator: "sum";
  get(): Promise<{
    name: string;
    help: string;
    type: string;
    aggregator: string;
    values: Sample[];
  }>;
  reset(): void;
}

/** A metric whose samples `samples()` produces at scrape time. */
export function collectedMetric(
  name: string,
  help: string,
  type: CollectedMetric["type"],
  samples: () => Sample[],
): CollectedMetric {
  return {
    name,
    help,
    type,
    aggregator: "sum",
    async get() {
      return { name, help, type, aggregator: "sum", values: samples() };
    },
    // Counters here only ever grow with the process; a registry reset does not rewind them.
    reset() {},
  };
}

/** The `_bucket`, `_sum` and `_count` samples of one histogram series. */
export function histogramSamples(
  name: string,
  labels: Record<string, string>,
  cell: HistogramCell,
  out: Sample[],
): void {
  let cumulative = 0;
  for (let i = 0; i < cell.bounds.length; i++) {
    cumulative += cell.counts[i]!;
    out.push({
      labels: { ...labels, le: cell.bounds[i]! },
      value: cumulative,
      metricName: `${name}_bucket`,
    });
  }
  out.push({ labels: { ...labels, le: "+Inf" }, value: cell.count, metricName: `${name}_bucket` });
  out.push({ labels, value: cell.sum, metricName: `${name}_sum` });
  out.push({ labels, value: cell.count, metricName: `${name}_count` });
}
