// Proxies and prefetchers over real HTTP (docs/email.md): an evergreen timer's `start_on`, with
// real User-Agent strings (their sources: request-source.test.ts), the viewer.started webhook
// that follows the start, and the caching headers of each public route (ETag per second, 304,
// Vary only where the picture depends on who asks).
import { createWebhookWorker } from "@tminus/webhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newKey, startTestServer, type TestServer } from "./_harness";
import { type Receiver, startReceiver } from "./_receiver";

const OPEN = { allow_http: true, allow_private_destinations: true };
const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);
const SECOND = 1000;

const UA = {
  /** Apple Mail Privacy Protection (https://www.mailgun.com/blog/product/bot-detection/). */
  applePrefetch: "Mozilla/5.0",
  /** Gmail's image proxy (matomo-org/device-detector, Tests/fixtures/bots.yml). */
  gmailProxy:
    "Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)",
  /** Outlook on Windows (matomo-org/device-detector, Tests/Parser/Client/fixtures/pim.yml). */
  outlook:
    "Microsoft Office/16.0 (Microsoft Outlook 16.0.12329; Pro), Mozilla/4.0 (compatible; ms-office; MSOffice 16)",
};

let s: TestServer;
let receiver: Receiver;
beforeAll(async () => {
  s = await startTestServer({
    plans: { starter: { requests_per_minute: 100_000, new_timers_per_cycle: 20 } },
    webhooks: OPEN,
  });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await s.close();
});

type Key = Awaited<ReturnType<TestServer["key"]>>;

/** A published evergreen timer of an hour whose viewer.started events go to the receiver. */
async function evergreen(key: Key, extra: Record<string, unknown>, path: string) {
  const created = await s.call("POST", "/api/v1/timers", {
    key,
    body: { name: "Offer", type: "duration", duration_seconds: 3600, ...extra },
    headers: { "idempotency-key": newKey() },
  });
  expect(created.status, created.text).toBe(201);
  const id = created.json.data.id as string;
  const pub = await s.call("POST", `/api/v1/timers/${id}/publish`, {
    key,
    headers: { "if-match": created.json.data.revision },
  });
  expect(pub.status, pub.text).toBe(200);
  const d = await s.call("POST", "/api/v1/webhook-destinations", {
    key,
    body: { url: `${receiver.url}/${path}` },
  });
  expect(d.status, d.text).toBe(201);
  const rule = await s.call("POST", `/api/v1/timers/${id}/webhook-rules`, {
    key,
    body: { destination_id: d.json.data.id, events: ["viewer.started"] },
  });
  expect(rule.status, rule.text).toBe(201);
  return { id, view: pub.json.data as Record<string, unknown> };
}

async function gif(id: string, query: string, ua: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${s.url}/t/${id}/countdown.gif?${query}`, {
    headers: { "user-agent": ua, ...headers },
  });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** Delivers what is due and returns the viewer.started bodies that reached `path`. */
async function startedEvents(path: string, at: number) {
  // The offers to the store run behind the responses: let them land, then deliver.
  await new Promise((r) => setTimeout(r, 50));
  const worker = createWebhookWorker({ store: s.store, config: { webhooks: OPEN }, now: () => at });
  await worker.runOnce();
  await worker.runOnce();
  await worker.stop();
  return receiver.received
    .filter((r) => r.path === `/${path}`)
    .map((r) => JSON.parse(r.body))
    .map((b) => [b.type, b.viewer.recipient_id, b.viewer.started_at]);
}

describe("start_on", () => {
  it("first_human_open: a privacy prefetch sees the full duration and starts nothing; the first human open starts it", async () => {
    s.setNow(T0);
    const key = await s.key("production");
    const { id, view } = await evergreen(key, { start_on: "first_human_open" }, "human");
    expect(view["start_on"]).toBe("first_human_open");
    // Delivered at T0: Apple prefetches. The full hour, and Vary, since a reader would differ.
    const prefetch = await gif(id, "r=ann", UA.applePrefetch);
    expect(prefetch.res.status).toBe(200);
    expect(prefetch.res.headers.get("vary")).toBe("User-Agent");
    // Ten minutes later, prefetched again (another Apple device): still the full hour.
    s.setNow(T0 + 600 * SECOND);
    const again = await gif(id, "r=ann", UA.applePrefetch);
    expect(again.bytes.equals(prefetch.bytes)).toBe(true);
    expect(await startedEvents("human", T0 + 600 * SECOND)).toEqual([]);
    // Twenty minutes after delivery ann opens it in Gmail: this starts the hour.
    s.setNow(T0 + 1200 * SECOND);
    const opened = await gif(id, "r=ann", UA.gmailProxy);
    expect(opened.bytes.equals(prefetch.bytes)).toBe(true);
    // A minute later Outlook counts from that open (59 minutes left), and so does the prefetch
    // copy's first frame no longer: a prefetch is still shown the full hour.
    s.setNow(T0 + 1260 * SECOND);
    const later = await gif(id, "r=ann", UA.outlook);
    expect(later.bytes.equals(prefetch.bytes)).toBe(false);
    const prefetchAfter = await gif(id, "r=ann", UA.applePrefetch);
    expect(prefetchAfter.bytes.equals(prefetch.bytes)).toBe(true);
    expect(await startedEvents("human", T0 + 1260 * SECOND)).toEqual([
      ["viewer.started", "ann", new Date(T0 + 1200 * SECOND).toISOString()],
    ]);
    // The timer's own status and analytics: the prefetches are views, counted as prefetches.
    const analytics = await s.call("GET", `/api/v1/timers/${id}/analytics`, { key });
    expect(analytics.json.data[0].by_source).toEqual({ human: 1, proxy: 1, prefetch: 3 });
    expect(analytics.json.data[0].human_unique_viewers).toBe(1);
  });

  it("first_open (the default): the prefetch starts the countdown at delivery", async () => {
    s.setNow(T0);
    const key = await s.key("production");
    const { id, view } = await evergreen(key, {}, "first");
    expect(view["start_on"]).toBe("first_open");
    const prefetch = await gif(id, "r=bo", UA.applePrefetch);
    // Nothing depends on who asks: no Vary.
    expect(prefetch.res.headers.get("vary")).toBeNull();
    s.setNow(T0 + 1200 * SECOND);
    const opened = await gif(id, "r=bo", UA.outlook);
    // Twenty minutes already gone: not the full hour any more.
    expect(opened.bytes.equals(prefetch.bytes)).toBe(false);
    expect(await startedEvents("first", T0 + 1200 * SECOND)).toEqual([
      ["viewer.started", "bo", new Date(T0).toISOString()],
    ]);
  });

  it("is validated, changed by PATCH and reset by null", async () => {
    const key = await s.key("production");
    const bad = await s.call("POST", "/api/v1/timers", {
      key,
      body: { name: "x", type: "duration", duration_seconds: 60, start_on: "first_click" },
      headers: { "idempotency-key": newKey() },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.details.field).toBe("start_on");
    const fixed = await s.call("POST", "/api/v1/timers", {
      key,
      body: {
        name: "x",
        type: "fixed",
        deadline_at: "2031-01-01T00:00:00Z",
        start_on: "first_open",
      },
      headers: { "idempotency-key": newKey() },
    });
    expect(fixed.status).toBe(400);
    const created = await s.call("POST", "/api/v1/timers", {
      key,
      body: { name: "x", type: "duration", duration_seconds: 60 },
      headers: { "idempotency-key": newKey() },
    });
    const id = created.json.data.id as string;
    const human = await s.call("PATCH", `/api/v1/timers/${id}`, {
      key,
      body: { start_on: "first_human_open" },
      headers: { "if-match": created.json.data.revision },
    });
    expect(human.status, human.text).toBe(200);
    expect(human.json.data.start_on).toBe("first_human_open");
    const reset = await s.call("PATCH", `/api/v1/timers/${id}`, {
      key,
      body: { start_on: null },
      headers: { "if-match": human.json.data.revision },
    });
    expect(reset.json.data.start_on).toBe("first_open");
  });
});

describe("caching headers", () => {
  it("images: no-cache, an ETag per second, 304 on If-None-Match, no Vary", async () => {
    s.setNow(T0);
    const key = await s.key("production");
    const { id } = await evergreen(key, {}, "cache");
    const first = await gif(id, "r=cy", UA.gmailProxy);
    const etag = first.res.headers.get("etag");
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(first.res.headers.get("cache-control")).toBe("no-cache, max-age=0");
    expect(first.res.headers.get("vary")).toBeNull();
    // The same second, look and viewer: the same tag, and a revalidation is answered 304.
    s.setNow(T0 + 400);
    const same = await gif(id, "r=cy", UA.gmailProxy);
    expect(same.res.headers.get("etag")).toBe(etag);
    const revalidated = await gif(id, "r=cy", UA.gmailProxy, { "if-none-match": etag! });
    expect(revalidated.res.status).toBe(304);
    expect(revalidated.bytes.byteLength).toBe(0);
    // Its Content-Length is the picture's it stands for.
    expect(revalidated.res.headers.get("content-length")).toBe(String(first.bytes.byteLength));
    expect(revalidated.res.headers.get("etag")).toBe(etag);
    expect(revalidated.res.headers.get("cache-control")).toBe("no-cache, max-age=0");
    const weak = await gif(id, "r=cy", UA.gmailProxy, { "if-none-match": `"x", W/${etag}` });
    expect(weak.res.status).toBe(304);
    const head = await fetch(`${s.url}/t/${id}/countdown.gif?r=cy`, {
      method: "HEAD",
      headers: { "if-none-match": etag! },
    });
    expect(head.status).toBe(304);
    // Another look (width), another viewer's clock: other tags.
    expect((await gif(id, "r=cy&width=400", UA.gmailProxy)).res.headers.get("etag")).not.toBe(etag);
    // Another recipient whose clock shows the same time left: the same picture, the same tag.
    s.setNow(T0 + 30 * SECOND);
    expect((await gif(id, "r=dee", UA.gmailProxy)).res.headers.get("etag")).toBe(etag);
    // The next second: a new picture, a new tag; the old one is not a match.
    s.setNow(T0 + SECOND);
    const next = await gif(id, "r=cy", UA.gmailProxy, { "if-none-match": etag! });
    expect(next.res.status).toBe(200);
    expect(next.res.headers.get("etag")).not.toBe(etag);
    expect(next.bytes.byteLength).toBeGreaterThan(0);
  });

  it("pages, embeds and links: no-store and no ETag", async () => {
    s.setNow(T0);
    const key = await s.key("production");
    const { id } = await evergreen(key, {}, "pages");
    for (const path of [`/t/${id}?r=ed`, `/t/${id}/embed?r=ed`, `/t/${id}/go?r=ed`]) {
      const res = await fetch(s.url + path, { redirect: "manual" });
      await res.arrayBuffer();
      expect(res.headers.get("cache-control"), path).toBe("no-store");
      expect(res.headers.get("etag"), path).toBeNull();
      expect(res.headers.get("vary"), path).toBeNull();
    }
  });
});
