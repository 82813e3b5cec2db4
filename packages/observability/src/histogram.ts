/**
 * Upper bounds (seconds) of the duration histograms: from half a millisecond (a cached status
 * answer) to ten seconds (a request stuck behind a PostgreSQL pool).
 */
export const DURATION_BUCKETS: readonly number[] = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

/**
 * One histogram series: counts per bucket, sum and count, in plain numbers. Observing is a
 * short scan and three additions, with no allocation: this runs on every request, and
 * prom-client's own `observe` builds and hashes a label object each time.
 */
export class HistogramCell {
  /** Observations per bucket (not cumulative); the last slot is above every bound. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(readonly bounds: readonly number[] = DURATION_BUCKETS) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  /** Records one value (seconds). */
  observe(value: number): void {
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]!) i++;
    this.counts[i]! += 1;
    this.sum += value;
    this.count += 1;
  }
}
