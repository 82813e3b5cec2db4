// Every in-memory cache of the handler stays within its bound however many distinct inputs it
// is sent (keys, timers, recipients, deadlines, paths, query strings), and the metrics say how
// full each is without growing a label per input. Real HTTP on loopback, a real SQLite file,
// the real handler with the `caches` bounds of the config set small.
import { Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMetrics, type TminusMetrics } from "../src/index";
import { fixedTimer, newKey, startTestServer, type TestServer } from "./_harness";

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

let s: TestServer;
let metrics: TminusMetrics;
beforeAll(async () => {
  metrics = createMetrics({ registry: new Registry(), processMetrics: false });
  s = await startTestServer(
    {
      plans: { starter: { requests_per_minute: 100_000, new_timers_per_cycle: 100, max_keys: 20 } },
      caches: { api_keys: 3, timers: 4, first_views: 3, viewer_events: 3, analytics_viewers: 5 },
      render: { threads: 0 },
    },
    { handler: { metrics } },
  );
});
afterAll(() => s.close());

type Key = Awaited<ReturnType<TestServer["key"]>>;

async function published(key: Key, body: Record<string, unknown>): Promise<string> {
  const created = await s.call("POST", "/api/v1/timers", {
    key,
    body,
    headers: { "idempotency-key": newKey() },
  });
  expect(created.status, created.text).toBe(201);
  const pub = await s.call("POST", `/api/v1/timers/${created.json.data.id}/publish`, {
    key,
    headers: { "if-match": created.json.data.revision },
  });
  expect(pub.status, pub.text).toBe(200);
  return created.json.data.id as string;
}

async function entries(cache: string): Promise<number> {
  const value = parse(await metrics.metrics()).get(`tminus_cache_entries{cache="${cache}"}`);
  expect(value, `tminus_cache_entries{cache="${cache}"}`).toBeTypeOf("number");
  return value!;
}

async function bytesOf(cache: string): Promise<number | undefined> {
  return parse(await metrics.metrics()).get(`tminus_cache_bytes{cache="${cache}"}`);
}

/** The largest value the gauge showed while `steps` ran, read after each step. */
async function peak(cache: string, steps: Array<() => Promise<unknown>>): Promise<number> {
  let most = 0;
  for (const step of steps) {
    await step();
    most = Math.max(most, await entries(cache));
  }
  return most;
}

const ok = async (path: string) => {
  const res = await fetch(s.url + path);
  await res.arrayBuffer();
  expect(res.status, path).toBe(200);
};

describe("cache bounds (config.caches)", () => {
  it("API keys: ten keys used, at most caches.api_keys kept", async () => {
    const key = await s.key("production", "keys-owner");
    const timer = await published(key, fixedTimer());
    const keys = [];
    for (let i = 0; i < 10; i++) keys.push(await s.key("production", `keys-${i}`));
    const most = await peak(
      "api_keys",
      keys.map((k) => async () => {
        // Another account's timer: 404, but the key was found (and kept).
        const res = await s.call("GET", `/api/v1/timers/${timer}/status`, { key: k });
        expect(res.status).toBe(404);
      }),
    );
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(3);
    expect(await bytesOf("viewer_events")).toBe(64);
  });

  it("timers: ten timers read, at most caches.timers kept", async () => {
    const key = await s.key("production", "timers-owner");
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await published(key, fixedTimer({ name: `T${i}` })));
    const most = await peak(
      "timers",
      ids.flatMap((id) => [
        () => s.call("GET", `/api/v1/timers/${id}`, { key }),
        () => ok(`/t/${id}/countdown.json`),
      ]),
    );
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(4);
  });

  it("first views: twenty recipients of a duration timer, at most caches.first_views kept", async () => {
    const key = await s.key("production", "views-owner");
    const id = await published(key, { name: "Evergreen", type: "duration", duration_seconds: 600 });
    const most = await peak(
      "first_views",
      Array.from({ length: 20 }, (_, i) => () => ok(`/t/${id}/countdown.json?r=first-${i}`)),
    );
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(3);
    expect(await bytesOf("viewer_events")).toBe(64);
  });

  it("viewer events: twenty recipients of a personalized timer, at most caches.viewer_events kept", async () => {
    const key = await s.key("production", "events-owner");
    const id = await published(key, {
      name: "Trial",
      type: "personalized",
      personalization: { source: "deadline" },
    });
    // Memory taken at start: 8 slots of 8 bytes for a bound of 3, full or empty.
    expect(await bytesOf("viewer_events")).toBe(64);
    const most = await peak(
      "viewer_events",
      Array.from(
        { length: 20 },
        (_, i) => () =>
          ok(
            `/t/${id}/countdown.json?deadline=2030-01-01T12:00:${String(i).padStart(2, "0")}Z&r=ev-${i}`,
          ),
      ),
    );
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(3);
    expect(await bytesOf("viewer_events")).toBe(64);
  });

  it("analytics: viewers remembered as written stay at most caches.analytics_viewers", async () => {
    const key = await s.key("production", "analytics-owner");
    const id = await published(key, fixedTimer({ name: "Seen" }));
    // 8 slots of 16 bytes (fingerprint and hours) for a bound of 5, full or empty.
    expect(await bytesOf("analytics_viewers_written")).toBe(128);
    const most = await peak(
      "analytics_viewers_written",
      Array.from({ length: 12 }, (_, i) => async () => {
        await ok(`/t/${id}/countdown.json?r=viewer-${i}`);
        // GET /analytics flushes the counted views first, so each step's marks are written.
        const res = await s.call("GET", `/api/v1/timers/${id}/analytics`, { key });
        expect(res.status, res.text).toBe(200);
      }),
    );
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(5);
    expect(await bytesOf("analytics_viewers_written")).toBe(128);
  });
});

describe("metrics labels under distinct inputs", () => {
  it("unknown paths, ids and query strings add no label values", async () => {
    const key = await s.key("production", "labels");
    const timer = await published(key, fixedTimer({ name: "Labels" }));
    const routes = async () =>
      new Set(
        [...parse(await metrics.metrics()).keys()]
          .filter((k) => k.startsWith("tminus_http_requests_total{"))
          .map((k) => /route="([^"]*)"/.exec(k)?.[1]),
      );
    // Each kind once, so every template it can have is known before the flood.
    const kinds = (i: number) => [
      `/api/v1/nothing-${i}/x`,
      `/api/v1/timers/${crypto.randomUUID()}/status?q=${i}`,
      `/api/v1/timers/not-a-uuid-${i}`,
      `/t/${crypto.randomUUID()}/countdown.gif?r=${i}`,
      `/t/${timer}/countdown.json?r=labels-${i}&utm_x=${i}`,
      `/t/${timer}/elsewhere-${i}`,
      `/t/assets/fonts/none-${i}.woff2`,
      `/random/${i}?x=${i}`,
      `/dashboard/nothing-${i}`,
    ];
    const send = async (i: number) => {
      for (const path of kinds(i)) {
        const res = await fetch(s.url + path, {
          headers: { authorization: `Bearer ${key.secret}` },
        });
        await res.arrayBuffer();
        expect(res.status, path).toBeLessThan(500);
      }
    };
    await send(0);
    const before = await routes();
    for (let i = 1; i <= 15; i++) await send(i);
    const after = await routes();
    expect([...after].sort()).toEqual([...before].sort());
    // No id, token or query of a request ever appears in the exposition.
    const text = await metrics.metrics();
    expect(text).not.toContain(timer);
    expect(text).not.toMatch(/nothing-|not-a-uuid|elsewhere-|none-\d|labels-\d|random\/\d/);
    // The cache gauges have one series per cache, whatever was asked.
    const caches = [...parse(text).keys()].filter((k) => k.startsWith("tminus_cache_entries{"));
    expect(caches.sort()).toEqual(
      [
        "analytics_pending",
        "analytics_viewers_written",
        "api_keys",
        "assets",
        "first_views",
        "images",
        "rate_limit_buckets",
        "stills",
        "timers",
        "uploaded_fonts",
        "viewer_events",
      ]
        .map((c) => `tminus_cache_entries{cache="${c}"}`)
        .sort(),
    );
  }, 120_000);
});
