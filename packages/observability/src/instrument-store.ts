import type { Store } from "@tminus/store";
import { HistogramCell } from "./histogram";
import { histogramSamples, type Sample } from "./series";
import type { SpanLike, Tracing } from "./tracing";

/** Durations and failures of store calls, by method name (a fixed set: bounded cardinality). */
export class StoreStats {
  readonly durations = new Map<string, HistogramCell>();
  readonly errors = new Map<string, number>();

  /** The cell of one operation, made once when its wrapper is made. */
  cell(operation: string): HistogramCell {
    let cell = this.durations.get(operation);
    if (!cell) {
      cell = new HistogramCell();
      this.durations.set(operation, cell);
    }
    return cell;
  }

  /** `tminus_store_operation_duration_seconds` samples of operations called at least once. */
  durationSamples(name: string): Sample[] {
    const out: Sample[] = [];
    for (const [operation, cell] of this.durations) {
      if (cell.count > 0) histogramSamples(name, { operation }, cell, out);
    }
    return out;
  }

  /** `tminus_store_errors_total` samples. */
  errorSamples(): Sample[] {
    return [...this.errors].map(([operation, value]) => ({ labels: { operation }, value }));
  }
}

/** Marks a store already wrapped, so the CLI's wrapped store is not wrapped again by the handler. */
const INSTRUMENTED = Symbol.for("tminus.instrumentedStore");

/** What to do around each store call. */
export interface StoreInstrumentation {
  stats?: StoreStats | null;
  tracing?: Tracing | null;
}

/**
 * The store with each method timed (into `stats`) and, while a tracer provider is
 * registered, traced as a child span of the active request. The wrapper of each method is
 * made once; a call costs two clock reads and a histogram update (without `stats`, only the
 * check for a tracer provider while none is registered).
 */
export function instrumentStore<S extends Store>(store: S, how: StoreInstrumentation): S {
  if ((store as unknown as Record<symbol, unknown>)[INSTRUMENTED]) return store;
  const { stats, tracing } = how;
  if (!stats && !tracing) return store;
  const out: Record<string | symbol, unknown> = { [INSTRUMENTED]: true };
  // Own properties and, for an adapter written as a class, its prototype's methods.
  for (let from: object | null = store; from && from !== Object.prototype; ) {
    for (const key of Object.getOwnPropertyNames(from)) {
      if (key === "constructor" || key in out) continue;
      const value = (store as unknown as Record<string, unknown>)[key];
      if (typeof value !== "function") out[key] = value;
      else if (key === "close") out[key] = value.bind(store);
      else {
        const fn = value as (...args: unknown[]) => unknown;
        out[key] = wrap(store, key, fn, stats ?? null, tracing ?? null);
      }
    }
    from = Object.getPrototypeOf(from);
  }
  return out as unknown as S;
}

function wrap(
  store: object,
  operation: string,
  fn: (...args: unknown[]) => unknown,
  stats: StoreStats | null,
  tracing: Tracing | null,
): (...args: unknown[]) => unknown {
  const cell = stats?.cell(operation) ?? null;
  const spanName = `store ${operation}`;
  const failed = () => {
    if (stats) stats.errors.set(operation, (stats.errors.get(operation) ?? 0) + 1);
  };
  if (cell === null) {
    // Traced only (the handler's store without metrics): while no tracer provider is
    // registered the call goes straight through, no clock read, no closure.
    return function traced(...args: unknown[]) {
      const span = tracing!.start(spanName, "internal");
      if (span === null) return fn.apply(store, args);
      return call(span, args);
    };
  }
  return function instrumented(...args: unknown[]) {
    return call(tracing?.start(spanName, "internal") ?? null, args);
  };

  function call(span: SpanLike | null, args: unknown[]): unknown {
    const started = performance.now();
    const done = () => {
      cell?.observe((performance.now() - started) / 1000);
      span?.end();
    };
    let result: unknown;
    try {
      result = fn.apply(store, args);
    } catch (error) {
      failed();
      if (span) tracing!.fail(span, error);
      done();
      throw error;
    }
    if (!(result instanceof Promise)) {
      done();
      return result;
    }
    return result.then(
      (value) => {
        done();
        return value;
      },
      (error: unknown) => {
        failed();
        if (span) tracing!.fail(span, error);
        done();
        throw error;
      },
    );
  }
}
