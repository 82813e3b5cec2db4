// Test sends over real HTTP: a merge tag the email platform left unfilled in `r`, `deadline` or
// `start` gets a preview (an evergreen timer's full duration, a personalized timer's fallback)
// and leaves no trace: no viewer stored, no view counted, no per-recipient webhook event.
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newKey, startTestServer, type TestServer } from "./_harness";

const Database = createRequire(new URL("../../store/package.json", import.meta.url))(
  "better-sqlite3",
) as typeof import("better-sqlite3");

const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);
const SECOND = 1000;
const OPEN = { allow_http: true, allow_private_destinations: true };

// One tag per platform family, as a test send leaves it in the URL.
const TAGS = [
  "*|UNIQID|*",
  "{{ email }}",
  "{{contact.email}}",
  "{{ customer.id }}",
  "%%emailaddr%%",
  "[[id]]",
  "{$email}",
  "%SUBSCRIBERID%",
  "",
];

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({
    plans: { starter: { requests_per_minute: 100_000, new_timers_per_cycle: 20 } },
    webhooks: OPEN,
  });
});
afterAll(() => s.close());

type Key = Awaited<ReturnType<TestServer["key"]>>;

/** A published timer with a rule that wants viewer.started, so a tracked viewer leaves a row. */
async function published(key: Key, body: Record<string, unknown>) {
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
  const d = await s.call("POST", "/api/v1/webhook-destinations", {
    key,
    body: { url: "http://127.0.0.1:9/hooks" },
  });
  expect(d.status, d.text).toBe(201);
  const rule = await s.call("POST", `/api/v1/timers/${created.json.data.id}/webhook-rules`, {
    key,
    body: { destination_id: d.json.data.id, events: ["viewer.started", "viewer.ended"] },
  });
  expect(rule.status, rule.text).toBe(201);
  return created.json.data.id as string;
}

async function gif(id: string, query: string) {
  const res = await fetch(`${s.url}/t/${id}/countdown.gif?${query}`);
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** What the store holds about a timer's viewers, views and webhook events. */
async function traces(key: Key, id: string) {
  // Reading analytics flushes the batched view counter.
  const analytics = await s.call("GET", `/api/v1/timers/${id}/analytics`, { key });
  expect(analytics.status, analytics.text).toBe(200);
  const views = (analytics.json.data as { views: number }[]).reduce((n, b) => n + b.views, 0);
  // The per-recipient event offer runs behind the response.
  await new Promise((r) => setTimeout(r, 50));
  const db = new Database(s.dbPath, { readonly: true });
  try {
    const viewers = db
      .prepare("SELECT viewer FROM timer_viewers WHERE timer_id = ? ORDER BY viewer")
      .all(id)
      .map((row) => (row as { viewer: string }).viewer);
    const events = db
      .prepare("SELECT viewer FROM viewer_events WHERE timer_id = ? ORDER BY viewer")
      .all(id)
      .map((row) => (row as { viewer: string }).viewer);
    return { views, viewers, events };
  } finally {
    db.close();
  }
}

describe("unfilled merge tags on the public routes", () => {
  it("an evergreen timer previews its full duration, however late, and stores nothing", async () => {
    s.setNow(T0);
    const key = await s.key("production");
    const id = await published(key, {
      name: "Evergreen",
      type: "duration",
      duration_seconds: 3600,
    });
    s.setNow(T0 + 100 * SECOND);
    const previews = [];
    for (const tag of TAGS) {
      const { res, bytes } = await gif(id, `r=${encodeURIComponent(tag)}&width=400`);
      expect(res.status, tag).toBe(200);
      expect(res.headers.get("x-tminus-preview"), tag).toBe("unfilled-merge-tag");
      previews.push(bytes);
    }
    // Later still, the preview is still the full hour: no first view was stored for the tag.
    s.setNow(T0 + 500 * SECOND);
    const later = await gif(id, "r=*%7CUNIQID%7C*&width=400");
    expect(later.res.headers.get("x-tminus-preview")).toBe("unfilled-merge-tag");
    // A real recipient's first view is the full hour too: the same picture.
    const real = await gif(id, "r=ann&width=400");
    expect(real.res.headers.get("x-tminus-preview")).toBeNull();
    for (const bytes of [...previews, later.bytes]) expect(bytes.equals(real.bytes)).toBe(true);
    // The timer counting from publication shows 500 s less: a different picture.
    const anonymous = await gif(id, "width=400");
    expect(anonymous.bytes.equals(real.bytes)).toBe(false);

    // The hosted page and the embed: a preview too, and no viewer cookie.
    for (const path of [`/t/${id}?r=%7B%7B%20email%20%7D%7D`, `/t/${id}/embed?r=`]) {
      const page = await fetch(s.url + path);
      await page.text();
      expect(page.status, path).toBe(200);
      expect(page.headers.get("x-tminus-preview"), path).toBe("unfilled-merge-tag");
      expect(page.headers.get("set-cookie"), path).toBeNull();
    }

    // Only ann and the anonymous view left a trace.
    expect(await traces(key, id)).toEqual({ views: 2, viewers: ["r:ann"], events: ["r:ann"] });
  });

  it("a personalized timer previews its fallback and stores nothing", async () => {
    s.setNow(T0);
    const key = await s.key("production");
    const fallback = "2030-01-02T12:00:00Z";
    const id = await published(key, {
      name: "Trial",
      type: "personalized",
      personalization: { source: "deadline", fallback_deadline_at: fallback },
    });
    const previews = [];
    for (const tag of TAGS) {
      const query = `deadline=${encodeURIComponent(tag)}&sig=${encodeURIComponent("*|SIG|*")}`;
      const { res, bytes } = await gif(id, query);
      expect(res.status, tag).toBe(200);
      expect(res.headers.get("x-tminus-preview"), tag).toBe("unfilled-merge-tag");
      previews.push(bytes);
    }
    // A filled deadline equal to the fallback draws the same picture, and is a real view.
    const real = await gif(id, `deadline=${encodeURIComponent(fallback)}`);
    expect(real.res.headers.get("x-tminus-preview")).toBeNull();
    for (const bytes of previews) expect(bytes.equals(real.bytes)).toBe(true);
    const other = await gif(id, "deadline=2030-01-01T13:00:00Z");
    expect(other.bytes.equals(real.bytes)).toBe(false);
    // A filled deadline with an unfilled `r` beside it is still a test send.
    const mixed = await gif(id, "deadline=2030-01-01T13:00:00Z&r=%7B%7Bcontact.email%7D%7D");
    expect(mixed.res.headers.get("x-tminus-preview")).toBe("unfilled-merge-tag");
    expect(mixed.bytes.equals(real.bytes)).toBe(true);

    const { views, events } = await traces(key, id);
    expect({ views, events: events.length }).toEqual({ views: 2, events: 2 });
  });

  it("utm_* and other parameters holding tags change nothing", async () => {
    s.setNow(T0);
    const key = await s.key("production");
    const id = await published(key, { name: "Evergreen", type: "duration", duration_seconds: 60 });
    const { res } = await gif(id, "r=bo&utm_campaign=%7B%7Bcampaign.name%7D%7D");
    expect(res.headers.get("x-tminus-preview")).toBeNull();
    expect(await traces(key, id)).toEqual({ views: 1, viewers: ["r:bo"], events: ["r:bo"] });
  });
});
