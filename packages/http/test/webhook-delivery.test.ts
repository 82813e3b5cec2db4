// Black-box: the API writes events, the worker delivers them over real HTTP to a receiver on
// loopback (private destinations are allowed by the config, as in development).

import { createWebhookWorker, type WebhookWorker } from "@tminus/webhooks";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedTimer, newKey, startTestServer, type TestServer } from "./_harness";
import { type Received, type Receiver, startReceiver } from "./_receiver";

const WEBHOOKS = { allow_http: true, allow_private_destinations: true, timeout_ms: 1000 };
// Test-only retry schedule (WebhookWorkerOptions.retryDelaysMs): the real one waits 5 s first.
const RETRY_MS = [150, 150, 150];

let s: TestServer;
let receiver: Receiver;
let worker: WebhookWorker;
beforeAll(async () => {
  s = await startTestServer({
    sandbox: { requests_per_minute: 100_000 },
    plans: { starter: { requests_per_minute: 100_000 } },
    webhooks: WEBHOOKS,
  });
  receiver = await startReceiver();
  worker = createWebhookWorker({
    store: s.store,
    config: { webhooks: WEBHOOKS },
    pollIntervalMs: 50,
    retryDelaysMs: RETRY_MS,
    onError: (error) => console.error(error),
  });
  worker.start();
});
afterAll(async () => {
  await worker.stop();
  await receiver.close();
  await s.close();
});

type Key = Awaited<ReturnType<TestServer["key"]>>;

async function destination(key: Key, path: string, body: Record<string, unknown> = {}) {
  const res = await s.call("POST", "/api/v1/webhook-destinations", {
    key,
    body: { url: `${receiver.url}${path}`, events: ["timer.created"], ...body },
  });
  expect(res.status, res.text).toBe(201);
  return res.json.data as { id: string; secret: string };
}

async function createTimer(key: Key, body: Record<string, unknown> = fixedTimer()) {
  const res = await s.call("POST", "/api/v1/timers", {
    key,
    body,
    headers: { "idempotency-key": newKey() },
  });
  expect(res.status, res.text).toBe(201);
  return res.json.data as { id: string; revision: string; [k: string]: unknown };
}

const at = (path: string) => (r: Received[]) => r.filter((x) => x.path === path);

async function deliveries(key: Key, query = "") {
  const res = await s.call("GET", `/api/v1/webhook-deliveries${query}`, { key });
  expect(res.status, res.text).toBe(200);
  return res.json.data as {
    id: string;
    status: string;
    event: { id: string; type: string };
    attempts: { response_status: number | null; error: string | null }[];
    [k: string]: unknown;
  }[];
}

/** Waits until every delivery of the key is settled (not pending). */
async function settled(key: Key, count: number) {
  for (let i = 0; i < 300; i++) {
    const list = await deliveries(key);
    if (list.length >= count && list.every((d) => d.status !== "pending")) return list;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("deliveries did not settle");
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("webhook delivery", () => {
  it("signs per Standard Webhooks (verified by the standardwebhooks package) and sends the timer as the API returns it", async () => {
    const key = await s.key("production");
    const d = await destination(key, "/signed", { events: ["timer.created", "timer.updated"] });
    const timer = await createTimer(key);
    await receiver.waitFor((r) => at("/signed")(r).length === 1);
    const [request] = at("/signed")(receiver.received);
    const payload = new Webhook(d.secret).verify(request!.body, request!.headers as never) as {
      type: string;
      timestamp: string;
      data: unknown;
    };
    expect(payload.type).toBe("timer.created");
    expect(payload.data).toEqual(timer);
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(Number(request!.headers["webhook-timestamp"])).toBeCloseTo(Date.now() / 1000, -1);
    const [delivery] = await settled(key, 1);
    expect(delivery!.event.id).toBe(request!.headers["webhook-id"]);
    // A tampered body fails verification.
    expect(() =>
      new Webhook(d.secret).verify(
        request!.body.replace("Launch", "Lunch"),
        request!.headers as never,
      ),
    ).toThrow();

    // During a rotation both secrets sign: receivers on either one keep verifying.
    const rotated = await s.call("POST", `/api/v1/webhook-destinations/${d.id}/rotate-secret`, {
      key,
    });
    const patched = await s.call("PATCH", `/api/v1/timers/${timer.id}`, {
      key,
      body: { name: "Renamed" },
      headers: { "if-match": timer.revision },
    });
    await receiver.waitFor((r) => at("/signed")(r).length === 2);
    const second = at("/signed")(receiver.received)[1]!;
    expect(String(second.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    for (const secret of [d.secret, rotated.json.data.secret]) {
      const body = new Webhook(secret).verify(second.body, second.headers as never) as {
        type: string;
        data: unknown;
      };
      expect(body.type).toBe("timer.updated");
      expect(body.data).toEqual(patched.json.data);
    }
  });

  it("a receiver that fails twice then succeeds gets exactly three attempts; the delivery ends succeeded", async () => {
    const key = await s.key("production");
    await destination(key, "/flaky");
    receiver.respond = (req, nth) =>
      req.path === "/flaky" && nth <= 2
        ? { status: 500, body: `failure ${nth}` }
        : { status: 200, body: "ok" };
    await createTimer(key);
    const [delivery] = await settled(key, 1);
    await sleep(500); // nothing more arrives after success
    const requests = at("/flaky")(receiver.received);
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((r) => r.headers["webhook-id"])).size).toBe(1);
    expect(delivery).toMatchObject({ status: "succeeded", attempt_count: 3, next_retry_at: null });
    expect(delivery!.attempts).toMatchObject([
      {
        attempt: 1,
        trigger: "scheduled",
        response_status: 500,
        response_body: "failure 1",
        error: null,
      },
      { attempt: 2, response_status: 500, response_body: "failure 2" },
      { attempt: 3, response_status: 200, response_body: "ok" },
    ]);
    const read = await s.call("GET", `/api/v1/webhook-deliveries/${delivery!.id}`, { key });
    expect(read.json.data).toEqual(delivery);
    expect((await deliveries(key, "?status=succeeded")).map((x) => x.id)).toEqual([delivery!.id]);
    expect(await deliveries(key, "?status=failed")).toEqual([]);
    receiver.respond = () => ({ status: 204 });
  });

  it("shows next_retry_at while a retry is scheduled, then fails after the last retry", async () => {
    const key = await s.key("production");
    await destination(key, "/down");
    receiver.respond = (req) => (req.path === "/down" ? { status: 503 } : { status: 204 });
    await createTimer(key);
    await receiver.waitFor((r) => at("/down")(r).length >= 1);
    await sleep(30);
    const [pending] = await deliveries(key, "?status=pending");
    if (pending) {
      expect(pending.next_retry_at).not.toBeNull();
      expect(Date.parse(pending.next_retry_at as string)).toBeGreaterThan(Date.now() - 1000);
    }
    const [failed] = await settled(key, 1);
    expect(failed).toMatchObject({ status: "failed", attempt_count: 4, next_retry_at: null });
    expect(at("/down")(receiver.received)).toHaveLength(4);
    receiver.respond = () => ({ status: 204 });
  });

  it("every change and control action sends its event with the timer after the change", async () => {
    const key = await s.key("production");
    const events = [
      "timer.created",
      "timer.updated",
      "timer.published",
      "timer.paused",
      "timer.resumed",
      "timer.extended",
      "timer.archived",
      "timer.restored",
      "timer.deleted",
    ];
    await destination(key, "/all", { events });
    const timer = await createTimer(key);
    const expected: Record<string, unknown> = { "timer.created": timer };
    let revision = timer.revision;
    const step = async (type: string, method: string, path: string, body?: unknown) => {
      const res = await s.call(method, `/api/v1/timers/${timer.id}${path}`, {
        key,
        body,
        headers: { "if-match": revision },
      });
      expect(res.status, res.text).toBe(200);
      if (res.json.data.revision) revision = res.json.data.revision;
      expected[type] = res.json.data;
    };
    await step("timer.updated", "PATCH", "", { name: "Renamed" });
    await step("timer.published", "POST", "/publish");
    await step("timer.paused", "POST", "/pause");
    await step("timer.resumed", "POST", "/resume");
    await step("timer.extended", "POST", "/extend", { seconds: 60 });
    await step("timer.archived", "POST", "/archive");
    await step("timer.restored", "POST", "/restore");
    await step("timer.deleted", "DELETE", "");
    await receiver.waitFor((r) => at("/all")(r).length === events.length);
    const got = Object.fromEntries(
      at("/all")(receiver.received).map((r) => {
        const body = JSON.parse(r.body) as { type: string; data: { revision: string } };
        return [body.type, body.data];
      }),
    );
    expect(Object.keys(got).sort()).toEqual([...events].sort());
    for (const type of events) {
      if (type === "timer.deleted")
        expect(got[type]).toMatchObject({ id: timer.id, name: "Renamed" });
      else expect(got[type], type).toEqual(expected[type]);
    }
  });

  it("fires timer.ended within 2 s of a fixed timer's deadline, and the threshold before it", async () => {
    const key = await s.key("production");
    const d = await destination(key, "/ended", { events: [] });
    const deadline = Math.ceil((Date.now() + 2500) / 1000) * 1000;
    const timer = await createTimer(
      key,
      fixedTimer({ deadline_at: new Date(deadline).toISOString() }),
    );
    const rule = await s.call("POST", `/api/v1/timers/${timer.id}/webhook-rules`, {
      key,
      body: { destination_id: d.id, events: ["timer.ended", "timer.threshold"], offset_seconds: 1 },
    });
    expect(rule.status, rule.text).toBe(201);
    await receiver.waitFor((r) => at("/ended")(r).length === 2, 8000);
    const [threshold, ended] = at("/ended")(receiver.received).map((r) => ({
      at: r.at,
      body: JSON.parse(r.body),
    }));
    expect(threshold!.body).toMatchObject({
      type: "timer.threshold",
      timestamp: new Date(deadline - 1000).toISOString(),
      target_at: new Date(deadline).toISOString(),
      offset_seconds: 1,
    });
    expect(ended!.body).toMatchObject({
      type: "timer.ended",
      timestamp: new Date(deadline).toISOString(),
      target_at: new Date(deadline).toISOString(),
    });
    expect(ended!.body.data).toMatchObject({ id: timer.id, object: "timer" });
    expect(threshold!.at).toBeGreaterThanOrEqual(deadline - 1000);
    expect(threshold!.at - (deadline - 1000)).toBeLessThan(2000);
    expect(ended!.at).toBeGreaterThanOrEqual(deadline);
    expect(ended!.at - deadline).toBeLessThan(2000);
    await sleep(600);
    expect(at("/ended")(receiver.received)).toHaveLength(2); // each once
  });

  it("replays a delivery: a new delivery of the same event, same webhook-id", async () => {
    const key = await s.key("production");
    const d = await destination(key, "/replay");
    await createTimer(key);
    const [original] = await settled(key, 1);
    const replay = await s.call("POST", `/api/v1/webhook-deliveries/${original!.id}/replay`, {
      key,
    });
    expect(replay.status, replay.text).toBe(201);
    expect(replay.json.data).toMatchObject({
      status: "pending",
      replay_of: original!.id,
      attempts: [],
    });
    await receiver.waitFor((r) => at("/replay")(r).length === 2);
    const [a, b] = at("/replay")(receiver.received);
    expect(b!.headers["webhook-id"]).toBe(a!.headers["webhook-id"]);
    expect(b!.body).toBe(a!.body);
    const list = await settled(key, 2);
    const replayed = list.find((x) => x.id === replay.json.data.id)!;
    expect(replayed).toMatchObject({ status: "succeeded", attempts: [{ trigger: "manual" }] });
    const missing = await s.call(
      "POST",
      "/api/v1/webhook-deliveries/00000000-0000-4000-8000-000000000000/replay",
      { key },
    );
    expect(missing.status).toBe(404);
    const bad = await s.call("GET", "/api/v1/webhook-deliveries/nope", { key });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({
      code: "validation_error",
      details: { field: "delivery_id" },
    });
    await s.call("PATCH", `/api/v1/webhook-destinations/${d.id}`, {
      key,
      body: { enabled: false },
    });
    const refused = await s.call("POST", `/api/v1/webhook-deliveries/${original!.id}/replay`, {
      key,
    });
    expect(refused.json.error).toMatchObject({
      code: "validation_error",
      details: { field: "destination_id" },
    });
  });

  it("410 Gone fails the delivery and disables the destination", async () => {
    const key = await s.key("production");
    const d = await destination(key, "/gone");
    receiver.respond = (req) => (req.path === "/gone" ? { status: 410 } : { status: 204 });
    await createTimer(key);
    const [failed] = await settled(key, 1);
    expect(failed).toMatchObject({ status: "failed", attempt_count: 1 });
    const read = await s.call("GET", `/api/v1/webhook-destinations/${d.id}`, { key });
    expect(read.json.data).toMatchObject({ enabled: false, disabled_reason: "gone" });
    await createTimer(key);
    await sleep(300);
    expect(await deliveries(key)).toHaveLength(1);
    receiver.respond = () => ({ status: 204 });
  });

  it("never follows redirects: a 3xx is a failed attempt", async () => {
    const key = await s.key("production");
    await destination(key, "/moved");
    receiver.respond = (req) =>
      req.path === "/moved"
        ? { status: 307, headers: { location: `${receiver.url}/elsewhere` } }
        : { status: 204 };
    await createTimer(key);
    const [failed] = await settled(key, 1);
    expect(failed!.attempts.map((a) => a.response_status)).toEqual([307, 307, 307, 307]);
    expect(at("/elsewhere")(receiver.received)).toEqual([]);
    receiver.respond = () => ({ status: 204 });
  });

  it("honours Retry-After on 429", async () => {
    const key = await s.key("production");
    await destination(key, "/busy");
    receiver.respond = (req, nth) =>
      req.path === "/busy" && nth === 1
        ? { status: 429, headers: { "retry-after": "1" } }
        : { status: 204 };
    await createTimer(key);
    await receiver.waitFor((r) => at("/busy")(r).length === 2, 5000);
    const [first, second] = at("/busy")(receiver.received);
    // The schedule says 150 ms; the receiver asked for a second.
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1000);
    receiver.respond = () => ({ status: 204 });
  });

  it("records timeouts, refused connections and the first 1 KB of the body", async () => {
    const key = await s.key("production");
    receiver.respond = (req) =>
      req.path === "/slow"
        ? "hang"
        : req.path === "/big"
          ? { status: 500, body: "x".repeat(5000) }
          : { status: 204 };
    await destination(key, "/slow");
    await destination(key, "/big");
    const closed = await startReceiver();
    const refusedUrl = closed.url;
    await closed.close();
    await s.call("POST", "/api/v1/webhook-destinations", {
      key,
      body: { url: `${refusedUrl}/nobody`, events: ["timer.created"] },
    });
    await createTimer(key);
    for (let i = 0; i < 100; i++) {
      const list = await deliveries(key);
      if (list.length === 3 && list.every((x) => x.attempts.length > 0)) break;
      await sleep(100);
    }
    const errors = (await deliveries(key)).map((x) => x.attempts[0]);
    expect(errors.map((a) => a?.error).sort()).toEqual(
      [null, "connection_refused", "timeout"].sort(),
    );
    const big = errors.find((a) => a?.response_status === 500)!;
    expect((big as unknown as { response_body: string }).response_body).toBe("x".repeat(1024));
    receiver.respond = () => ({ status: 204 });
  });

  it("a suspended account's events are held, pending, and delivered once it is active again", async () => {
    const key = await s.key("production", "held-while-suspended");
    await destination(key, "/held");
    await createTimer(key);
    await s.admin.suspendAccount("held-while-suspended");
    await sleep(400); // several worker passes
    expect(at("/held")(receiver.received)).toHaveLength(0);
    const account = (await s.store.findAccountByName("held-while-suspended"))!;
    const held = await s.store.listWebhookDeliveries({
      account_id: account.id,
      environment: "production",
      limit: 10,
    });
    expect(held.map((d) => [d.status, d.attempts.length])).toEqual([["pending", 0]]);
    await s.admin.activateAccount("held-while-suspended");
    await receiver.waitFor((r) => at("/held")(r).length === 1);
    expect((await settled(key, 1))[0]!.status).toBe("succeeded");
  });
});
