import { createRequire } from "node:module";

/** The attributes the spans carry. */
export type SpanAttributes = Record<string, string | number | boolean>;

/** The slice of an OpenTelemetry span tminus uses. */
export interface SpanLike {
  setAttribute(key: string, value: string | number | boolean): unknown;
  updateName(name: string): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  recordException(exception: Error | string): unknown;
  end(): void;
}

/** Spans for requests and store calls, on the tracer provider the application registered. */
export interface Tracing {
  /**
   * A span started as a child of the active one, or null when no tracer provider is
   * registered (then nothing is allocated for tracing).
   */
  start(name: string, kind: "server" | "internal"): SpanLike | null;
  /** Runs `fn` with `span` as the active span, so store calls become its children. */
  within<T>(span: SpanLike, fn: () => T): T;
  /** Marks the span failed. */
  fail(span: SpanLike, error: unknown): void;
}

/** The part of `@opentelemetry/api` used here, declared so the types do not need the package. */
interface OtelApi {
  trace: {
    getTracerProvider(): { getDelegate?(): unknown };
    getTracer(
      name: string,
      version?: string,
    ): {
      startSpan(name: string, options?: { kind?: number }, context?: unknown): SpanLike;
    };
    setSpan(context: unknown, span: SpanLike): unknown;
  };
  context: { active(): unknown; with<T>(context: unknown, fn: () => T): T };
  ProxyTracerProvider: new () => { getDelegate(): unknown };
  SpanKind: { SERVER: number; INTERNAL: number };
  SpanStatusCode: { ERROR: number };
}

let loaded: OtelApi | null | undefined;

/**
 * Loads `@opentelemetry/api` if the application installed it (an optional peer dependency);
 * null otherwise. Synchronous, once: `require` made from this module's URL resolves the
 * package from where @tminus/http is installed, so the application's copy (and its global
 * tracer provider) is the one used.
 */
function loadOtel(): OtelApi | null {
  if (loaded !== undefined) return loaded;
  try {
    const mod = createRequire(import.meta.url)("@opentelemetry/api") as OtelApi & {
      default?: OtelApi;
    };
    loaded = mod.trace ? mod : (mod.default ?? null);
  } catch {
    loaded = null;
  }
  return loaded;
}

/**
 * Tracing through the OpenTelemetry API when it is installed, else null. Spans are made only
 * while a tracer provider is registered: the API's default provider is a no-op, and asking it
 * for spans on every request would cost for nothing.
 */
export function createTracing(): Tracing | null {
  const api = loadOtel();
  if (!api) return null;
  // The API hands out one no-op provider; a proxy with no delegate shows which it is.
  const noop = new api.ProxyTracerProvider().getDelegate();
  const registered = () => {
    const provider = api.trace.getTracerProvider();
    return (provider.getDelegate ? provider.getDelegate() : provider) !== noop;
  };
  return {
    start(name, kind) {
      if (!registered()) return null;
      const tracer = api.trace.getTracer("@tminus/http");
      return tracer.startSpan(
        name,
        { kind: kind === "server" ? api.SpanKind.SERVER : api.SpanKind.INTERNAL },
        api.context.active(),
      );
    },
    within(span, fn) {
      return api.context.with(api.trace.setSpan(api.context.active(), span), fn);
    },
    fail(span, error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: api.SpanStatusCode.ERROR });
    },
  };
}
