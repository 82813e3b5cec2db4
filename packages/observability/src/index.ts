export { instrumentStore, type StoreInstrumentation, StoreStats } from "./instrument-store";
export type { Logger, RequestLogLine } from "./logger";
export {
  type CacheFigure,
  createMetrics,
  type HandlerFigures,
  type MetricsInternals,
  type MetricsOptions,
  metricsInternals,
  type RenderFigures,
  type TminusMetrics,
} from "./metrics";
export { createTracing, type SpanAttributes, type SpanLike, type Tracing } from "./tracing";
