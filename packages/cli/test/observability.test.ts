// Health, readiness, metrics and logs of real `tminus serve` processes over real HTTP:
// readiness follows a PostgreSQL server of the test's own as it stops and returns, and turns
// 503 the moment a shutdown starts; metrics are scraped from their own port and parsed; the
// request lines are matched to responses by X-Request-Id and carry no secret.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MIGRATIONS, sqliteStore } from "@tminus/store/sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { skipping } from "../../../test/_skipping";
import {
  type PrivatePostgres,
  privatePostgresReason,
  startPrivatePostgres,
} from "./_private-postgres";
import {
  api,
  type IssuedKey,
  issueKey,
  type Started,
  serve,
  stop,
  stopAll,
  TIMER,
  tminus,
  until,
  worker,
} from "./_processes";

let dir = "";
let config = "";

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "tminus-obs-"));
  config = join(dir, "config.json");
  writeFileSync(config, JSON.stringify({ plans: { starter: { requests_per_minute: 100_000 } } }));
});
afterAll(async () => {
  await stopAll();
  rmSync(dir, { recursive: true, force: true });
});

interface Probe {
  status: number;
  requestId: string | null;
  // biome-ignore lint/suspicious/noExplicitAny: bodies are checked field by field.
  json: any;
}

async function probe(url: string): Promise<Probe> {
  const res = await fetch(url);
  const text = await res.text();
  return { status: res.status, requestId: res.headers.get("x-request-id"), json: JSON.parse(text) };
}

/** The log lines a process printed (JSON lines only; the banner is plain text). */
// biome-ignore lint/suspicious/noExplicitAny: log lines are checked field by field.
function logLines(started: Started): any[] {
  return started
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line));
}

/** A metric sample: name, labels, value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses the Prometheus text format (what a scraper reads). */
function parseMetrics(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (m[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[pair[1]!] = pair[2]!;
    }
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

/** The value of one series (0 when the series does not exist yet). */
function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.find(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  return found?.value ?? 0;
}

async function scrape(metricsUrl: string): Promise<Sample[]> {
  const res = await fetch(metricsUrl);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
  return parseMetrics(await res.text());
}

/** Waits for the `metrics on <url>` line. */
async function metricsUrlOf(started: Started): Promise<string> {
  let url = "";
  await until(
    () => {
      url = /metrics on (http:\/\/\S+)/.exec(started.output())?.[1] ?? "";
      return url !== "";
    },
    10_000,
    "the metrics URL",
  );
  return url;
}

const missingPg = privatePostgresReason();
if (missingPg && process.env.CI === "true") throw new Error(`CI needs initdb/pg_ctl: ${missingPg}`);
if (missingPg) skipping("initdb and pg_ctl", "apt-get install postgresql, or set TMINUS_PG_BIN");

describe.skipIf(missingPg !== null)("readiness follows the database", () => {
  let pg: PrivatePostgres | undefined;
  afterAll(async () => {
    await pg?.destroy();
  });

  it("goes 503 when the PostgreSQL server stops and back to 200 when it returns; liveness stays 200", async () => {
    pg = await startPrivatePostgres();
    const server = await serve(["--db", pg.url, "--log-format", "json", "--pool-size", "3"]);
    const ready = `${server.url}/readyz`;
    const live = `${server.url}/healthz`;
    expect((await probe(ready)).status).toBe(200);

    await pg.stop();
    let down: Probe | undefined;
    await until(
      async () => {
        down = await probe(ready);
        return down.status === 503;
      },
      15_000,
      "readiness 503 after the database stopped",
    );
    expect(down!.json).toEqual({
      error: {
        code: "not_ready",
        message: expect.any(String),
        details: { reason: "store_unavailable" },
      },
      request_id: down!.requestId,
    });
    expect((await probe(live)).status).toBe(200);
    // Log lines are written asynchronously: the line may follow the answer by a moment.
    await until(
      () => logLines(server).some((l) => l.event === "not_ready"),
      5_000,
      "the not_ready event in the log",
    );
    const notReady = logLines(server).find((l) => l.event === "not_ready");
    expect(notReady).toMatchObject({ level: 40, reason: "store_unavailable" });

    await pg.start();
    await until(async () => (await probe(ready)).status === 200, 20_000, "readiness 200 again");
    await until(
      () => logLines(server).some((l) => l.event === "ready" && l.time > notReady.time),
      5_000,
      "the ready event in the log",
    );
    await stop(server.child);
    expect(server.child.exitCode).toBe(0);
  }, 90_000);
});

describe("tminus serve: health, metrics and logs", () => {
  it("answers readiness 503 from the moment a shutdown starts, liveness 200, then exits 0", async () => {
    const server = await serve([
      "--db",
      join(dir, "shutdown.db"),
      "--shutdown-delay",
      "5",
      "--log-format",
      "json",
    ]);
    expect((await probe(`${server.url}/readyz`)).status).toBe(200);
    const exited = new Promise<number | null>((r) => server.child.once("exit", (code) => r(code)));
    const signalled = Date.now();
    server.child.kill("SIGTERM");
    let draining: Probe | undefined;
    await until(
      async () => {
        draining = await probe(`${server.url}/readyz`);
        return draining.status === 503;
      },
      4_000,
      "readiness 503 after SIGTERM",
    );
    expect(draining!.json.error).toMatchObject({
      code: "not_ready",
      details: { reason: "shutting_down" },
    });
    expect(draining!.json.request_id).toBe(draining!.requestId);
    // Still alive and still answering while the balancer drains it.
    expect((await probe(`${server.url}/healthz`)).status).toBe(200);
    expect(await exited).toBe(0);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(5_000);
    expect(logLines(server).map((l) => l.event)).toEqual(
      expect.arrayContaining(["shutdown", "stopped"]),
    );
    // A new database: the migration event names every version this start applied.
    const ready = logLines(server).find((l) => l.event === "database_ready");
    expect(ready.applied).toEqual(MIGRATIONS.map((m) => m.version));
  }, 30_000);

  it("serves /metrics on the metrics port only, and its counters move by exactly the requests made", async () => {
    const db = join(dir, "metrics.db");
    const key: IssuedKey = await issueKey(db, config, "metered");
    const server = await serve(["--db", db, "--config", config, "--metrics-port", "0"]);
    const metricsUrl = await metricsUrlOf(server);
    expect(new URL(metricsUrl).port).not.toBe(new URL(server.url).port);
    // Not on the public port.
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);

    const before = await scrape(metricsUrl);
    const auth = { authorization: `Bearer ${key.secret}` };
    const missing = randomUUID();
    for (let i = 0; i < 3; i++) {
      expect((await fetch(`${server.url}/api/v1/usage`, { headers: auth })).status).toBe(200);
    }
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${server.url}/api/v1/timers/${missing}`, { headers: auth });
      expect(res.status).toBe(404);
    }
    expect((await fetch(`${server.url}/api/v1/usage`)).status).toBe(401);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const after = await scrape(metricsUrl);

    const delta = (name: string, labels: Record<string, string>) =>
      value(after, name, labels) - value(before, name, labels);
    const usage = { route: "/api/v1/usage", method: "GET" };
    const timer = { route: "/api/v1/timers/{timer_id}", method: "GET" };
    expect(delta("tminus_http_requests_total", { ...usage, status: "200" })).toBe(3);
    expect(delta("tminus_http_requests_total", { ...usage, status: "401" })).toBe(1);
    expect(delta("tminus_http_requests_total", { ...timer, status: "404" })).toBe(2);
    expect(
      delta("tminus_http_requests_total", { route: "/healthz", method: "GET", status: "200" }),
    ).toBe(1);
    expect(delta("tminus_http_request_duration_seconds_count", usage)).toBe(4);
    expect(delta("tminus_http_request_duration_seconds_bucket", { ...usage, le: "+Inf" })).toBe(4);
    expect(delta("tminus_http_request_duration_seconds_sum", usage)).toBeGreaterThan(0);
    expect(value(after, "tminus_ready")).toBe(1);
    expect(value(after, "tminus_webhook_outbox_pending")).toBe(0);
    expect(value(after, "tminus_render_queue_limit")).toBeGreaterThan(0);
    expect(
      value(after, "tminus_store_operation_duration_seconds_count", { operation: "checkReady" }),
    ).toBeGreaterThan(0);
    expect(value(after, "process_cpu_seconds_total")).toBeGreaterThan(0);
    // Route templates, never ids: the timer id asked for is in no label.
    expect(after.some((s) => Object.values(s.labels).some((v) => v.includes(missing)))).toBe(false);
    await stop(server.child);
  }, 30_000);

  it("logs one JSON line per request with the response's X-Request-Id, and no secret or query-string data", async () => {
    const db = join(dir, "logs.db");
    const key: IssuedKey = await issueKey(db, config, "logged");
    const server = await serve(["--db", db, "--config", config, "--log-format", "json"]);
    const email = "alice.secret@example.com";
    const res = await fetch(
      `${server.url}/api/v1/usage?email=${encodeURIComponent(email)}&signature=s1gn4ture`,
      { headers: { authorization: `Bearer ${key.secret}` } },
    );
    expect(res.status).toBe(200);
    const requestId = res.headers.get("x-request-id")!;
    const timerId = randomUUID();
    const image = await fetch(
      `${server.url}/t/${timerId}/countdown.gif?r=${encodeURIComponent(email)}&sig=s1gn4ture`,
    );
    expect(image.status).toBe(404);
    const imageRequestId = image.headers.get("x-request-id")!;
    const wrongKey = await fetch(`${server.url}/api/v1/usage`, {
      headers: { authorization: "Bearer svc_test_notarealkeynotarealkeynotarealkey12" },
    });
    expect(wrongKey.status).toBe(401);

    await until(
      () => logLines(server).some((l) => l.request_id === imageRequestId),
      5_000,
      "the request lines",
    );
    const lines = logLines(server);
    const store = sqliteStore({ path: db });
    const account = await store.findAccountByName("logged");
    await store.close();
    const line = lines.find((l) => l.request_id === requestId);
    expect(line).toMatchObject({
      level: 30,
      msg: "request",
      method: "GET",
      route: "/api/v1/usage",
      status: 200,
      account_id: account!.id,
      environment: "production",
    });
    expect(line.duration_ms).toBeGreaterThan(0);
    expect(lines.find((l) => l.request_id === imageRequestId)).toMatchObject({
      route: "/t/{timer_id}/countdown.gif",
      status: 404,
    });
    expect(lines.filter((l) => l.request_id === requestId)).toHaveLength(1);
    await stop(server.child);
    const logs = lines.map((l) => JSON.stringify(l)).join("\n");
    for (const secret of [key.secret, email, "alice.secret", "s1gn4ture", timerId, "notarealkey"]) {
      expect(logs).not.toContain(secret);
    }
    // Nor anywhere in what the process printed (the keys existed before it started).
    expect(server.output()).not.toContain(key.secret);
  }, 30_000);

  it("counts and logs webhook attempts by outcome, never with the destination's URL", async () => {
    const hooks = join(dir, "hooks.json");
    writeFileSync(
      hooks,
      JSON.stringify({
        plans: { starter: { requests_per_minute: 100_000 } },
        webhooks: { allow_http: true, allow_private_destinations: true, retry_delays_seconds: [1] },
      }),
    );
    // The first attempt fails (500), the retry succeeds.
    let calls = 0;
    const receiver = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        calls++;
        res.writeHead(calls === 1 ? 500 : 204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
    try {
      const port = (receiver.address() as { port: number }).port;
      const db = join(dir, "hooks.db");
      const key = await issueKey(db, hooks, "hooked");
      const server = await serve([
        "--db",
        db,
        "--config",
        hooks,
        "--metrics-port",
        "0",
        "--log-format",
        "json",
      ]);
      const metricsUrl = await metricsUrlOf(server);
      const token = "s3cr3tt0ken";
      const destination = await api(server.url, key, "POST", "/webhook-destinations", {
        body: {
          url: `http://127.0.0.1:${port}/receiver-xyz?token=${token}`,
          events: ["timer.created"],
        },
      });
      expect(destination.status).toBe(201);
      const created = await api(server.url, key, "POST", "/timers", {
        body: TIMER,
        headers: { "idempotency-key": randomUUID() },
      });
      expect(created.status).toBe(201);
      await until(
        () => logLines(server).filter((l) => l.event === "webhook_attempt").length === 2,
        15_000,
        "two attempts in the log",
      );
      const attempts = logLines(server).filter((l) => l.event === "webhook_attempt");
      expect(attempts.map((l) => [l.outcome, l.status, l.attempt])).toEqual([
        ["retry", 500, 1],
        ["succeeded", 204, 2],
      ]);
      expect(attempts[0]).toMatchObject({ destination_id: destination.json.data.id, level: 30 });
      const metrics = await scrape(metricsUrl);
      expect(value(metrics, "tminus_webhook_attempts_total", { outcome: "retry" })).toBe(1);
      expect(value(metrics, "tminus_webhook_attempts_total", { outcome: "succeeded" })).toBe(1);
      expect(value(metrics, "tminus_webhook_attempts_total", { outcome: "failed" })).toBe(0);
      expect(value(metrics, "tminus_webhook_attempt_duration_seconds_count")).toBe(2);
      expect(value(metrics, "tminus_webhook_outbox_pending")).toBe(0);
      expect(value(metrics, "tminus_webhook_outbox_oldest_due_age_seconds")).toBe(0);
      await stop(server.child);
      const logs = logLines(server)
        .map((l) => JSON.stringify(l))
        .join("\n");
      for (const secret of [token, "receiver-xyz", destination.json.data.secret, key.secret]) {
        expect(logs).not.toContain(secret);
      }
    } finally {
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  }, 40_000);

  it("tminus worker serves its metrics and logs its events too", async () => {
    const db = join(dir, "worker.db");
    await issueKey(db, config, "worked");
    const started = await worker([
      "--db",
      db,
      "--config",
      config,
      "--metrics-port",
      "0",
      "--log-format",
      "json",
    ]);
    const metricsUrl = await metricsUrlOf(started);
    const samples = await scrape(metricsUrl);
    expect(value(samples, "tminus_webhook_outbox_pending")).toBe(0);
    expect(
      value(samples, "tminus_store_operation_duration_seconds_count", {
        operation: "claimDueDeliveries",
      }),
    ).toBeGreaterThan(0);
    await stop(started.child);
    expect(started.child.exitCode).toBe(0);
    expect(logLines(started).map((l) => l.event)).toEqual(
      expect.arrayContaining(["database_ready", "worker_started", "stopped"]),
    );
    // The database was made (and migrated) by `keys create`: nothing left to apply.
    expect(logLines(started).find((l) => l.event === "database_ready").applied).toEqual([]);
  }, 30_000);

  it("sizes itself to --memory-mb and shows the budget's shares in the metrics", async () => {
    const server = await serve([
      "--db",
      join(dir, "budget.db"),
      "--config",
      config,
      "--metrics-port",
      "0",
      "--memory-mb",
      "300",
    ]);
    try {
      const samples = await scrape(await metricsUrlOf(server));
      const share = (part: string) => value(samples, "tminus_memory_budget_bytes", { part });
      const mb = 1024 * 1024;
      expect(share("total")).toBe(300 * mb);
      // 300 MB holds one render thread, which draws the stills too, and a queue of 38.
      expect(share("render_threads")).toBe(130 * mb);
      expect(share("still_thread")).toBe(0);
      const parts = ["process", "render_threads", "still_thread", "image_cache", "still_cache"];
      const used = parts.reduce((total, part) => total + share(part), 0);
      expect(used + share("headroom")).toBe(share("total"));
      expect(value(samples, "tminus_render_threads")).toBe(1);
      expect(value(samples, "tminus_render_queue_limit")).toBe(38);
    } finally {
      await stop(server.child);
    }
    const bad = await tminus(["serve", "--db", join(dir, "bad.db"), "--memory-mb", "200"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(
      'tminus: --memory-mb must be an integer from 272 to 65536, got "200"\n',
    );
  }, 30_000);

  it("rejects a bad --log-format and --metrics-port with one tminus: line", async () => {
    const format = await tminus(["serve", "--db", join(dir, "bad.db"), "--log-format", "xml"]);
    expect(format.code).toBe(1);
    expect(format.stderr).toBe('tminus: --log-format must be json or pretty, got "xml"\n');
    const port = await tminus(["serve", "--db", join(dir, "bad.db"), "--metrics-port", "99999"]);
    expect(port.stderr).toBe(
      'tminus: --metrics-port must be an integer from 0 to 65535, got "99999"\n',
    );
  });
});
