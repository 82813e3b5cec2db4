// The worker on a fake clock, one pass at a time (runOnce): time-based events, exactly once,
// across restarts and concurrent workers; the SSRF guard at delivery time.

import { createWebhookWorker, type WebhookWorkerOptions } from "@tminus/webhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { fixedTimer, newKey, startTestServer, type TestServer } from "./_harness";
import { type Receiver, startReceiver } from "./_receiver";

const OPEN = { allow_http: true, allow_private_destinations: true };
const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let s: TestServer;
let receiver: Receiver;
let clock = T0;
const workers: ReturnType<typeof createWebhookWorker>[] = [];

beforeAll(async () => {
  s = await startTestServer({
    sandbox: { requests_per_minute: 100_000 },
    plans: { starter: { requests_per_minute: 100_000, new_timers_per_cycle: 4 } },
    webhooks: OPEN,
  });
  receiver = await startReceiver();
});
afterEach(async () => {
  for (const w of workers.splice(0)) await w.stop();
  s.setNow(null);
});
afterAll(async () => {
  await receiver.close();
  await s.close();
});

/** A worker that is never started: the test drives it with runOnce on the fake clock. */
function worker(over: Partial<WebhookWorkerOptions> = {}) {
  const w = createWebhookWorker({
    store: s.store,
    config: { webhooks: OPEN },
    now: () => clock,
    retryDelaysMs: [60_000],
    ...over,
  });
  workers.push(w);
  return w;
}

type Key = Awaited<ReturnType<TestServer["key"]>>;

async function setup(
  path: string,
  timerBody: Record<string, unknown>,
  rule: Record<string, unknown>,
) {
  s.setNow(T0);
  const key = await s.key("production");
  const d = await s.call("POST", "/api/v1/webhook-destinations", {
    key,
    body: { url: `${receiver.url}${path}` },
  });
  const timer = await s.call("POST", "/api/v1/timers", {
    key,
    body: timerBody,
    headers: { "idempotency-key": newKey() },
  });
  expect(timer.status, timer.text).toBe(201);
  const created = await s.call("POST", `/api/v1/timers/${timer.json.data.id}/webhook-rules`, {
    key,
    body: { destination_id: d.json.data.id, ...rule },
  });
  expect(created.status, created.text).toBe(201);
  return { key, timer: timer.json.data as { id: string; revision: string } };
}

const bodiesAt = (path: string) =>
  receiver.received
    .filter((r) => r.path === path)
    .map((r) => ({ id: String(r.headers["webhook-id"]), ...JSON.parse(r.body) }));

async function act(key: Key, id: string, action: string, at: number, body?: unknown) {
  s.setNow(at);
  const current = await s.call("GET", `/api/v1/timers/${id}`, { key });
  const res = await s.call("POST", `/api/v1/timers/${id}/${action}`, {
    key,
    body,
    headers: { "if-match": current.json.data.revision },
  });
  expect(res.status, res.text).toBe(200);
}

describe("time-based events", () => {
  it("a recurring timer: occurrences missed while down fire at once after a restart, each once, even with two workers", async () => {
    await setup(
      "/daily",
      {
        name: "Daily drop",
        type: "recurring",
        timezone: "Etc/UTC",
        recurrence: { rrule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0", dtstart: "2030-01-01T09:00" },
      },
      { events: ["timer.ended"] },
    );
    // The service was down from T0 to three days and an hour later.
    clock = T0 + 3 * DAY + HOUR;
    await Promise.all([worker().runOnce(), worker().runOnce()]);
    await Promise.all([worker().runOnce(), worker().runOnce()]);
    const got = bodiesAt("/daily");
    const days = ["2030-01-02", "2030-01-03", "2030-01-04"].map((d) => `${d}T09:00:00.000Z`);
    expect(got.map((b) => b.timestamp).sort()).toEqual(days);
    expect(got.map((b) => b.target_at).sort()).toEqual(days);
    expect(new Set(got.map((b) => b.id)).size).toBe(3);
    expect(got.every((b) => b.type === "timer.ended" && b.data.type === "recurring")).toBe(true);
    clock += DAY;
    await worker().runOnce();
    expect(bodiesAt("/daily").map((b) => b.timestamp)).toContain("2030-01-05T09:00:00.000Z");
    expect(bodiesAt("/daily")).toHaveLength(4);
  });

  it("a fixed timer: not before its deadline, at it once; extending revives it; the threshold fires before", async () => {
    const deadline = T0 + HOUR;
    const { key, timer } = await setup(
      "/fixed",
      fixedTimer({ deadline_at: new Date(deadline).toISOString() }),
      { events: ["timer.ended", "timer.threshold"], offset_seconds: 600 },
    );
    clock = deadline - 600_001;
    await worker().runOnce();
    expect(bodiesAt("/fixed")).toEqual([]);
    clock = deadline - 600_000;
    await worker().runOnce();
    expect(bodiesAt("/fixed").map((b) => b.type)).toEqual(["timer.threshold"]);
    clock = deadline - 1;
    await worker().runOnce();
    clock = deadline;
    await worker().runOnce();
    await worker().runOnce();
    expect(bodiesAt("/fixed").map((b) => b.type)).toEqual(["timer.threshold", "timer.ended"]);
    // Extending an ended timer revives it: it ends again at the new deadline.
    await act(key, timer.id, "extend", deadline + 60_000, { seconds: 1800 });
    clock = deadline + 1800_000;
    await worker().runOnce();
    // The new end and its threshold (20 minutes after the extension) fire once each.
    const revived = bodiesAt("/fixed").slice(2);
    expect(revived.map((b) => `${b.type} ${b.timestamp}`).sort()).toEqual([
      `timer.ended ${new Date(deadline + 1800_000).toISOString()}`,
      `timer.threshold ${new Date(deadline + 1200_000).toISOString()}`,
    ]);
    expect(revived.every((b) => b.data.revision === "r2")).toBe(true);
  });

  it("a paused timer fires nothing until resumed; an archived one consumes its end silently", async () => {
    const deadline = T0 + HOUR;
    const paused = await setup(
      "/paused",
      fixedTimer({ deadline_at: new Date(deadline).toISOString() }),
      { events: ["timer.ended"] },
    );
    await act(paused.key, paused.timer.id, "pause", deadline - 30 * 60_000);
    clock = deadline + HOUR;
    await worker().runOnce();
    expect(bodiesAt("/paused")).toEqual([]);
    // Resumed after 2 h paused: 30 minutes were left.
    await act(paused.key, paused.timer.id, "resume", deadline + 90 * 60_000);
    clock = deadline + 2 * HOUR - 1;
    await worker().runOnce();
    expect(bodiesAt("/paused")).toEqual([]);
    clock = deadline + 2 * HOUR;
    await worker().runOnce();
    expect(bodiesAt("/paused").map((b) => b.target_at)).toEqual([
      new Date(deadline + 2 * HOUR).toISOString(),
    ]);

    clock = T0;
    const archived = await setup(
      "/archived",
      fixedTimer({ deadline_at: new Date(deadline).toISOString() }),
      { events: ["timer.ended"] },
    );
    await act(archived.key, archived.timer.id, "archive", deadline - 60_000);
    clock = deadline + 60_000;
    await worker().runOnce();
    await act(archived.key, archived.timer.id, "restore", deadline + 120_000);
    clock = deadline + 180_000;
    await worker().runOnce();
    expect(bodiesAt("/archived")).toEqual([]);
  });

  it("keeps firing and delivering when the new-timer allowance is spent", async () => {
    const deadline = T0 + HOUR;
    const { key } = await setup(
      "/quota",
      fixedTimer({ deadline_at: new Date(deadline).toISOString() }),
      { events: ["timer.ended"] },
    );
    const used = await s.call("GET", "/api/v1/usage", { key });
    const limit = used.json.data.metrics[0].limit as number;
    // Spend the rest of the allowance, then one more create is refused.
    for (let i = used.json.data.metrics[0].total; i < limit; i++) {
      await s.call("POST", "/api/v1/timers", {
        key,
        body: fixedTimer(),
        headers: { "idempotency-key": newKey() },
      });
    }
    const refused = await s.call("POST", "/api/v1/timers", {
      key,
      body: fixedTimer(),
      headers: { "idempotency-key": newKey() },
    });
    expect(refused.json.error.code).toBe("quota_exhausted");
    clock = deadline;
    await worker().runOnce();
    expect(bodiesAt("/quota").map((b) => b.type)).toEqual(["timer.ended"]);
  });
});

describe("the SSRF guard at delivery time", () => {
  it("refuses a name that resolves to a private address, and connects to the checked address", async () => {
    const port = new URL(receiver.url).port;
    const { key } = await setup(
      "/unused",
      fixedTimer({ deadline_at: new Date(T0 + HOUR).toISOString() }),
      { events: ["timer.ended"] },
    );
    s.setNow(T0);
    const d = await s.call("POST", "/api/v1/webhook-destinations", {
      key,
      body: { url: `http://hooks.internal.invalid:${port}/ssrf`, events: ["timer.created"] },
    });
    expect(d.status, d.text).toBe(201);
    await s.call("POST", "/api/v1/timers", {
      key,
      body: fixedTimer(),
      headers: { "idempotency-key": newKey() },
    });
    // The name resolves to loopback: refused, nothing sent.
    const resolver = async () => [{ address: "127.0.0.1", family: 4 as const }];
    clock = T0;
    await worker({ config: { webhooks: { allow_http: true } }, resolver }).runOnce();
    expect(bodiesAt("/ssrf")).toEqual([]);
    const list = await s.call("GET", "/api/v1/webhook-deliveries", { key });
    const attempt = list.json.data.find(
      (x: { destination_id: string }) => x.destination_id === d.json.data.id,
    ).attempts[0];
    expect(attempt).toMatchObject({ error: "blocked_address", response_status: null });
    // Allowed by the operator: the connection goes to the address the resolver gave (the
    // system resolver knows nothing of this name).
    clock = T0 + 70_000; // past the retry (60 s + up to 10 % jitter)
    await worker({ resolver }).runOnce();
    expect(bodiesAt("/ssrf").map((b) => b.type)).toEqual(["timer.created"]);
  });
});
