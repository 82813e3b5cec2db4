// The handler's probes, metrics, request lines and spans, as a library user mounts them: real
// HTTP on loopback, a real SQLite file, a real OpenTelemetry SDK.

import { createRequire } from "node:module";
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { Registry } from "prom-client";
import { afterEach, describe, expect, it } from "vitest";
import { createMetrics, type Logger } from "../src/index";
import { fixedTimer, newKey, startTestServer, type TestServer } from "./_harness";

// The store's own SQLite driver, to change the file behind a running handler's back.
const Database = createRequire(new URL("../../store/package.json", import.meta.url))(
  "better-sqlite3",
) as typeof import("better-sqlite3");

const servers: TestServer[] = [];
async function server(...args: Parameters<typeof startTestServer>): Promise<TestServer> {
  const s = await startTestServer(...args);
  servers.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function status(url: string): Promise<number> {
  const res = await fetch(url);
  await res.arrayBuffer();
  return res.status;
}

/** `name{labels} value` lines of the exposition text, by series. */
function parse(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

/** A logger that keeps every line, as pino would write them. */
function memoryLogger(): Logger & { lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const at =
    (level: string) =>
    (fields: object, msg?: string): void => {
      lines.push({ level, msg, ...fields });
    };
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

describe("health probes", () => {
  it("answer at the root with no key, never rate limited or metered", async () => {
    const s = await server({ plans: { starter: { requests_per_minute: 2 } } });
    const key = await s.key("production");
    for (let i = 0; i < 6; i++) {
      expect((await s.call("GET", "/readyz")).status).toBe(200);
      expect((await s.call("GET", "/healthz")).status).toBe(200);
    }
    // Twelve probes later the key still has both of its two requests this minute.
    expect((await s.call("GET", "/api/v1/usage", { key })).status).toBe(200);
    expect((await s.call("GET", "/api/v1/usage", { key })).status).toBe(200);
    expect((await s.call("GET", "/api/v1/usage", { key })).status).toBe(429);
    // HEAD answers like GET, without the body.
    const head = await fetch(`${s.url}/readyz`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    // Other methods are not the probe's.
    expect((await s.call("POST", "/readyz")).status).toBe(404);
  });

  it("move with the options, or are off; under basePath they sit under the mount", async () => {
    const moved = await server(
      {},
      { handler: { health: { liveness: "/live", readiness: false } } },
    );
    expect(await status(`${moved.url}/live`)).toBe(200);
    expect(await status(`${moved.url}/healthz`)).toBe(404);
    expect(await status(`${moved.url}/readyz`)).toBe(404);

    const off = await server({}, { handler: { health: false } });
    expect(await status(`${off.url}/healthz`)).toBe(404);
    expect(await status(`${off.url}/readyz`)).toBe(404);

    const mounted = await server({}, { handler: { basePath: "/countdown" } });
    expect(await status(`${mounted.url}/countdown/healthz`)).toBe(200);
    expect(await status(`${mounted.url}/countdown/readyz`)).toBe(200);
    expect(await status(`${mounted.url}/readyz`)).toBe(404);
  });

  it("readiness says 503 shutting_down once drain() is called; liveness stays 200", async () => {
    const s = await server();
    expect((await s.call("GET", "/readyz")).status).toBe(200);
    s.handler.drain();
    const res = await s.call("GET", "/readyz");
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(res.json).toEqual({
      error: {
        code: "not_ready",
        message: "this process is shutting down; send requests elsewhere",
        details: { reason: "shutting_down" },
      },
      request_id: res.headers.get("x-request-id"),
    });
    expect((await s.call("GET", "/healthz")).status).toBe(200);
  });

  it("readiness says 503 schema_mismatch when a newer tminus migrated the database", async () => {
    const logger = memoryLogger();
    const s = await server({}, { handler: { logger } });
    expect((await s.call("GET", "/readyz")).status).toBe(200);
    const db = new Database(s.dbPath);
    db.prepare("INSERT INTO schema_migrations (version, name) VALUES (?, ?)").run(9999, "future");
    db.close();
    const res = await s.call("GET", "/readyz");
    expect(res.status).toBe(503);
    expect(res.json.error.details).toEqual({ reason: "schema_mismatch" });
    // The reason is logged once, when readiness changes; the client sees no internals.
    expect(res.text).not.toContain("9999");
    expect(logger.lines.filter((l) => l.event === "not_ready")).toHaveLength(1);
    expect(
      String((logger.lines.find((l) => l.event === "not_ready")!.err as Error).message),
    ).toMatch(/9999/);
  });
});

describe("metrics of a library handler", () => {
  it("count requests by route template, time them, count image cache hits, in the registry given", async () => {
    const registry = new Registry();
    const metrics = createMetrics({ registry, processMetrics: false });
    expect(metrics.registry).toBe(registry);
    const s = await server(
      { plans: { starter: { requests_per_minute: 100_000 } } },
      { handler: { metrics } },
    );
    const key = await s.key("production");
    const created = await s.call("POST", "/api/v1/timers", {
      key,
      body: fixedTimer(),
      headers: { "idempotency-key": newKey() },
    });
    const id = created.json.data.id as string;
    const published = await s.call("POST", `/api/v1/timers/${id}/publish`, {
      key,
      headers: { "if-match": created.json.data.revision },
    });
    expect(published.status).toBe(200);
    const before = parse(await registry.metrics());
    for (let i = 0; i < 3; i++)
      expect((await s.call("GET", `/api/v1/timers/${id}`, { key })).status).toBe(200);
    // The same image twice within its second: one render, then the cache.
    const gif = `${s.url}/t/${id}/countdown.gif?width=300`;
    const [a, b] = await Promise.all([fetch(gif), fetch(gif)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    await Promise.all([a.arrayBuffer(), b.arrayBuffer()]);
    const after = parse(await metrics.metrics());
    const delta = (series: string) => (after.get(series) ?? 0) - (before.get(series) ?? 0);

    const timer = 'route="/api/v1/timers/{timer_id}",method="GET"';
    expect(delta(`tminus_http_requests_total{${timer},status="200"}`)).toBe(3);
    expect(delta(`tminus_http_request_duration_seconds_count{${timer}}`)).toBe(3);
    expect(
      delta(
        'tminus_http_requests_total{route="/t/{timer_id}/countdown.gif",method="GET",status="200"}',
      ),
    ).toBe(2);
    const lookups =
      delta('tminus_image_cache_requests_total{result="miss"}') +
      delta('tminus_image_cache_requests_total{result="hit"}') +
      delta('tminus_image_cache_requests_total{result="coalesced"}');
    expect(lookups).toBe(2);
    expect(delta('tminus_image_cache_requests_total{result="miss"}')).toBe(1);
    expect(delta('tminus_render_images_total{kind="gif"}')).toBe(1);
    expect(delta('tminus_store_operation_duration_seconds_count{operation="createTimer"}')).toBe(0);
    expect(
      after.get('tminus_store_operation_duration_seconds_count{operation="createTimer"}'),
    ).toBe(1);
    expect(after.get("tminus_ready")).toBe(1);
    // Ids never become labels; no process metrics were asked for.
    const text = await metrics.metrics();
    expect(text).not.toContain(id);
    expect(text).not.toContain("process_cpu");
  });

  it("counts a webhook attempt reported by a worker", async () => {
    const metrics = createMetrics({ processMetrics: false });
    metrics.webhookAttempt({
      delivery_id: "d",
      destination_id: "w",
      account_id: "a",
      attempt: 1,
      outcome: "retry",
      status: 500,
      error: "http_500",
      duration_ms: 120,
      recorded: true,
    });
    const after = parse(await metrics.metrics());
    expect(after.get('tminus_webhook_attempts_total{outcome="retry"}')).toBe(1);
    expect(after.get('tminus_webhook_attempts_total{outcome="failed"}')).toBe(0);
    expect(after.get("tminus_webhook_attempt_duration_seconds_count")).toBe(1);
    expect(after.get('tminus_webhook_attempt_duration_seconds_bucket{le="0.25"}')).toBe(1);
    expect(after.get('tminus_webhook_attempt_duration_seconds_bucket{le="0.1"}')).toBe(0);
  });
});

describe("request lines", () => {
  it("one line per request with its X-Request-Id, route template, account, and nothing of the query", async () => {
    const logger = memoryLogger();
    const s = await server({}, { handler: { logger } });
    const key = await s.key("production");
    const res = await s.call("GET", "/api/v1/usage?email=bob%40example.com&token=t0ps3cret", {
      key,
    });
    const other = await s.call("GET", "/api/v1/usage", { key: "svc_live_wrong" });
    const account = await s.store.findAccountByName(key.account);
    const line = logger.lines.find((l) => l.request_id === res.headers.get("x-request-id"));
    expect(line).toMatchObject({
      level: "info",
      msg: "request",
      method: "GET",
      route: "/api/v1/usage",
      status: 200,
      account_id: account!.id,
      environment: "production",
    });
    expect(
      logger.lines.find((l) => l.request_id === other.headers.get("x-request-id")),
    ).toMatchObject({
      route: "/api/v1/usage",
      status: 401,
    });
    const all = JSON.stringify(logger.lines);
    for (const secret of [key.secret, "bob", "t0ps3cret", "svc_live_wrong"])
      expect(all).not.toContain(secret);
  });
});

describe("tracing", () => {
  it("makes a server span per request and store spans beneath it, only once a provider is registered", async () => {
    const s = await server();
    const key = await s.key("production");
    const exporter = new InMemorySpanExporter();
    // Before any provider: nothing is traced.
    expect((await s.call("GET", "/api/v1/usage", { key })).status).toBe(200);
    const manager = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(manager);
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    trace.setGlobalTracerProvider(provider);
    try {
      const res = await s.call("GET", "/api/v1/usage", { key });
      expect(res.status).toBe(200);
      const spans = exporter.getFinishedSpans();
      const request = spans.find((sp) => sp.name === "GET /api/v1/usage");
      expect(request, spans.map((sp) => sp.name).join(", ")).toBeDefined();
      expect(request!.attributes).toMatchObject({
        "http.request.method": "GET",
        "http.route": "/api/v1/usage",
        "http.response.status_code": 200,
        "tminus.request_id": res.headers.get("x-request-id"),
      });
      const store = spans.filter((sp) => sp.name.startsWith("store "));
      expect(store.length).toBeGreaterThan(0);
      // The request's own store calls are its children; batched writes of earlier requests
      // and the purge run outside any request, as root spans.
      const children = store.filter(
        (sp) => sp.parentSpanContext?.spanId === request!.spanContext().spanId,
      );
      expect(children.map((sp) => sp.name)).toEqual(
        expect.arrayContaining(["store reserveRequests", "store getUsage"]),
      );
      for (const sp of children) {
        expect(sp.spanContext().traceId).toBe(request!.spanContext().traceId);
      }
      for (const sp of store) {
        expect([undefined, request!.spanContext().spanId]).toContain(sp.parentSpanContext?.spanId);
      }
    } finally {
      trace.disable();
      context.disable();
      await provider.shutdown();
    }
  });
});
