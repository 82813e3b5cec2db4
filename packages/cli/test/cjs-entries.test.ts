// Every package's CommonJS build, loaded with `require` from dist/ in a plain Node process (no
// vitest transform, no ESM anywhere) and used: the CJS builds find their optional peers and
// their own files from a shimmed `import.meta.url`, which is `undefined` without the shim
// (createRequire then throws ERR_INVALID_ARG_VALUE, or a guarded load gives up silently: no
// spans). The server is the CLI's own startServer, so dashboard, http, observability, store and
// render all run from their .cjs files; metrics are scraped after a request, spans land in an
// in-memory exporter, a GIF is drawn by @tminus/render's CJS build.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const packages = fileURLToPath(new URL("../..", import.meta.url));
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "tminus-cjs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The script: CommonJS only, packages resolved as the CLI and @tminus/http resolve them. */
const SCRIPT = `"use strict";
const { createRequire } = require("node:module");
const { join } = require("node:path");
const packages = ${JSON.stringify(packages)};
const fromCli = createRequire(join(packages, "cli", "package.json"));
const fromHttp = createRequire(join(packages, "http", "package.json"));
const fromStore = createRequire(join(packages, "store", "package.json"));
const loaded = {};
const load = (from, name) => {
  const path = from.resolve(name);
  if (!path.endsWith(".cjs")) throw new Error(name + " resolved to " + path + ", not a CJS build");
  loaded[name] = path;
  return from(name);
};

(async () => {
  // Tracing first: a provider registered before the server starts, an in-memory exporter.
  const otel = fromHttp("@opentelemetry/api");
  const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = fromHttp("@opentelemetry/sdk-trace-base");
  const { AsyncLocalStorageContextManager } = fromHttp("@opentelemetry/context-async-hooks");
  otel.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const exporter = new InMemorySpanExporter();
  otel.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));

  const core = load(fromCli, "@tminus/core");
  const { StoreError } = load(fromCli, "@tminus/store");
  const { sqliteStore } = load(fromCli, "@tminus/store/sqlite");
  const { postgresStore } = load(fromCli, "@tminus/store/postgres");
  const copy = load(fromCli, "@tminus/store/copy");
  const { signPayload } = load(fromCli, "@tminus/webhooks");
  const { sha256Hex } = load(fromCli, "@tminus/admin");
  const observability = load(fromCli, "@tminus/observability");
  const http = load(fromCli, "@tminus/http");
  const { tminusFastify } = load(fromHttp, "@tminus/http/fastify");
  const { dashboard } = load(fromCli, "@tminus/dashboard");
  const render = load(fromCli, "@tminus/render");
  const cli = load(fromCli, "tminus");

  // Each entry used, not only loaded.
  const checks = {
    core: core.escapeHtml("<b>") === "&lt;b&gt;",
    copy: Object.keys(copy).length > 0,
    webhooks: typeof signPayload === "function",
    admin: sha256Hex("a").length === 64,
    fastify: typeof tminusFastify === "function",
    dashboard: typeof dashboard() === "function",
    observabilityMetrics: typeof observability.createMetrics().registry.metrics === "function",
    observabilityTracing: observability.createTracing() !== null,
  };
  // pg resolved from the CJS build's own place (the store's), then closed without a query.
  const pg = postgresStore({ connectionString: "postgres://127.0.0.1:1/none" });
  await pg.close();
  checks.postgres = pg.kind === "postgres";

  // The CLI's server from its CJS build: SQLite, the dashboard, metrics on their own port.
  const store = sqliteStore({ path: ${JSON.stringify(join(dir, "cjs.db"))} });
  const running = await cli.startServer({
    store,
    config: cli.loadConfig(undefined, {}),
    port: 0,
    host: "127.0.0.1",
    worker: false,
    metricsPort: 0,
  });
  try {
    const auth = { authorization: "Bearer " + running.bootstrapped[1].secret };
    const usage = await fetch(running.url + "/api/v1/usage", { headers: auth });
    checks.usage = usage.status;
    const created = await fetch(running.url + "/api/v1/timers", {
      method: "POST",
      headers: { ...auth, "content-type": "application/json", "idempotency-key": crypto.randomUUID() },
      body: JSON.stringify({ type: "fixed", name: "CJS", deadline_at: "2031-01-01T00:00:00Z" }),
    });
    const timer = (await created.json()).data;
    const published = await fetch(running.url + "/api/v1/timers/" + timer.id + "/publish", {
      method: "POST",
      headers: { ...auth, "if-match": timer.revision },
    });
    const { urls } = (await published.json()).data;
    // The GIF route: @tminus/http finds @tminus/render from its CJS build, render draws it.
    const gif = await fetch(urls.gif);
    const bytes = Buffer.from(await gif.arrayBuffer());
    checks.gif = gif.status + " " + gif.headers.get("content-type") + " " + bytes.subarray(0, 6).toString("latin1");
    const page = await fetch(running.url + "/dashboard", { redirect: "manual" });
    checks.dashboardPage = page.status < 400 && (page.status >= 300 || (await page.text()).includes("<html"));
    const scraped = await (await fetch(running.metricsUrl)).text();
    checks.scraped = scraped.split("\\n").filter((l) => l.startsWith("tminus_http_requests_total{") && l.includes('route="/api/v1/usage"'));
  } finally {
    await running.close();
  }
  const conflict = await (async () => {
    const again = sqliteStore({ path: ":memory:" });
    const make = () => again.createAccount({ id: crypto.randomUUID(), name: "same", plan: "starter", now: 1 });
    await make();
    return make().catch((e) => e);
  })();
  checks.storeError = conflict instanceof StoreError;
  // A render pool of its own: the worker thread started from the CJS build.
  const pool = render.createRenderPool({ threads: 1 });
  const still = await pool.renderGif({ remainingSeconds: 90, frames: 2 });
  await pool.close();
  checks.renderPool = Buffer.from(still).subarray(0, 6).toString("latin1");
  checks.spans = exporter.getFinishedSpans().map((s) => s.name);
  process.stdout.write(JSON.stringify({ loaded, checks }));
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
`;

describe("the CommonJS builds, required from dist/ and used", () => {
  it("every entry loads with require and works: server, metrics, spans, stores, images", async () => {
    const file = join(dir, "entries.cjs");
    writeFileSync(file, SCRIPT);
    // Without NODE_PATH: package managers set it to their store, where anything is found.
    const { NODE_PATH: _, ...env } = process.env;
    const { stdout } = await run(process.execPath, [file], { cwd: dir, env, timeout: 90_000 });
    const { loaded, checks } = JSON.parse(stdout);
    expect(Object.keys(loaded).sort()).toEqual([
      "@tminus/admin",
      "@tminus/core",
      "@tminus/dashboard",
      "@tminus/http",
      "@tminus/http/fastify",
      "@tminus/observability",
      "@tminus/render",
      "@tminus/store",
      "@tminus/store/copy",
      "@tminus/store/postgres",
      "@tminus/store/sqlite",
      "@tminus/webhooks",
      "tminus",
    ]);
    expect(checks).toMatchObject({
      core: true,
      copy: true,
      webhooks: true,
      admin: true,
      fastify: true,
      dashboard: true,
      observabilityMetrics: true,
      observabilityTracing: true,
      postgres: true,
      usage: 200,
      gif: "200 image/gif GIF89a",
      dashboardPage: true,
      storeError: true,
      renderPool: "GIF89a",
    });
    // One counted request to the usage route, scraped from the metrics listener.
    expect(checks.scraped).toHaveLength(1);
    expect(checks.scraped[0]).toMatch(/status="200"[^}]*\} 1$|\} 1$/);
    // A server span per request (named from the route) and store spans beneath.
    expect(checks.spans).toContain("GET /api/v1/usage");
    expect(checks.spans).toContain("POST /api/v1/timers");
    expect(checks.spans.some((name: string) => name.startsWith("store "))).toBe(true);
  }, 120_000);
});
