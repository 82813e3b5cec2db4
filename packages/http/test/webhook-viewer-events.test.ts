// Per-recipient events over real HTTP: a recipient's first view of an email image sends
// viewer.started, the end of that recipient's own countdown sends viewer.ended (from the
// worker, at that instant), to a real receiver on loopback; on SQLite and PostgreSQL.
import { createWebhookWorker } from "@tminus/webhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { expectError, newKey, startTestServer, type TestServer } from "./_harness";
import { type Receiver, startReceiver } from "./_receiver";

const OPEN = { allow_http: true, allow_private_destinations: true };
const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);
const SECOND = 1000;

for (const backend of ["sqlite", "postgres"] as const) {
  describe(`per-recipient events (${backend})`, () => {
    let s: TestServer;
    let receiver: Receiver;
    let clock = T0;
    const workers: ReturnType<typeof createWebhookWorker>[] = [];

    beforeAll(async () => {
      s = await startTestServer(
        {
          plans: { starter: { requests_per_minute: 100_000, new_timers_per_cycle: 20 } },
          webhooks: { ...OPEN, max_viewer_events_per_timer_day: 3 },
        },
        { postgres: backend === "postgres" },
      );
      receiver = await startReceiver();
    });
    afterEach(async () => {
      for (const w of workers.splice(0)) await w.stop();
    });
    afterAll(async () => {
      await receiver.close();
      await s.close();
    });

    /** Sets the API's clock and the workers' together. */
    const at = (ms: number) => {
      clock = ms;
      s.setNow(ms);
    };

    /** One worker pass (time-based events, then deliveries), on the fake clock. */
    async function pass() {
      const w = createWebhookWorker({
        store: s.store,
        config: { webhooks: OPEN },
        now: () => clock,
      });
      workers.push(w);
      await w.runOnce();
      // The deliveries the pass queued are due now: a second pass sends them.
      await w.runOnce();
    }

    type Key = Awaited<ReturnType<TestServer["key"]>>;

    async function setup(path: string, body: Record<string, unknown>, events: string[]) {
      at(T0);
      const key = await s.key("production");
      const d = await s.call("POST", "/api/v1/webhook-destinations", {
        key,
        body: { url: `${receiver.url}${path}` },
      });
      expect(d.status, d.text).toBe(201);
      const created = await s.call("POST", "/api/v1/timers", {
        key,
        body,
        headers: { "idempotency-key": newKey() },
      });
      expect(created.status, created.text).toBe(201);
      const timer = created.json.data as { id: string; revision: string };
      const pub = await s.call("POST", `/api/v1/timers/${timer.id}/publish`, {
        key,
        headers: { "if-match": timer.revision },
      });
      expect(pub.status, pub.text).toBe(200);
      const rule = await s.call("POST", `/api/v1/timers/${timer.id}/webhook-rules`, {
        key,
        body: { destination_id: d.json.data.id, events },
      });
      expect(rule.status, rule.text).toBe(201);
      return { key, id: timer.id, destination: d.json.data.id as string };
    }

    async function view(id: string, query: string) {
      const res = await fetch(`${s.url}/t/${id}/countdown.gif${query}`);
      await res.arrayBuffer();
      expect(res.status).toBe(200);
      // The offer to the store runs behind the response: wait for it to land.
      await new Promise((r) => setTimeout(r, 50));
    }

    const got = (path: string) =>
      receiver.received
        .filter((r) => r.path === path)
        .map((r) => ({ id: String(r.headers["webhook-id"]), ...JSON.parse(r.body) }))
        .map((b) => ({ type: b.type, timestamp: b.timestamp, viewer: b.viewer, data: b.data }))
        // Deliveries run concurrently: order them by what they are about.
        .sort((a, b) => {
          const key = (x: typeof a) => `${x.timestamp}|${x.type}|${x.viewer?.recipient_id ?? ""}`;
          return key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
        });

    const iso = (ms: number) => new Date(ms).toISOString();

    it("duration timer: started at each recipient's first view, ended at its own end, each once", async () => {
      const path = `/duration-${backend}`;
      const { id } = await setup(path, { name: "Offer", type: "duration", duration_seconds: 600 }, [
        "viewer.started",
        "viewer.ended",
      ]);
      at(T0 + SECOND);
      await view(id, "?r=ann");
      at(T0 + 10 * SECOND);
      await view(id, "?r=ann"); // a repeat view: nothing new
      await view(id, ""); // no recipient id: not a tracked recipient
      at(T0 + 60 * SECOND);
      await view(id, "?r=bo");
      await Promise.all([pass(), pass()]);
      expect(got(path).map((b) => [b.type, b.timestamp, b.viewer])).toEqual([
        [
          "viewer.started",
          iso(T0 + SECOND),
          { recipient_id: "ann", started_at: iso(T0 + SECOND), ends_at: iso(T0 + 601 * SECOND) },
        ],
        [
          "viewer.started",
          iso(T0 + 60 * SECOND),
          {
            recipient_id: "bo",
            started_at: iso(T0 + 60 * SECOND),
            ends_at: iso(T0 + 660 * SECOND),
          },
        ],
      ]);
      expect(got(path)[0]!.data.id).toBe(id);
      at(T0 + 600 * SECOND);
      await pass();
      expect(got(path)).toHaveLength(2);
      at(T0 + 601 * SECOND);
      await Promise.all([pass(), pass()]);
      at(T0 + 700 * SECOND);
      await Promise.all([pass(), pass()]);
      const ended = got(path).filter((b) => b.type === "viewer.ended");
      expect(ended.map((b) => [b.timestamp, b.viewer.recipient_id, b.viewer.ends_at])).toEqual([
        [iso(T0 + 601 * SECOND), "ann", iso(T0 + 601 * SECOND)],
        [iso(T0 + 660 * SECOND), "bo", iso(T0 + 660 * SECOND)],
      ]);
      at(T0 + 2000 * SECOND);
      await pass();
      expect(got(path)).toHaveLength(4);
    });

    it("an extension moves a recipient's end; an archived timer ends nobody", async () => {
      const path = `/extended-${backend}`;
      const { key, id } = await setup(
        path,
        { name: "Offer", type: "duration", duration_seconds: 100 },
        ["viewer.ended"],
      );
      await view(id, "?r=cy");
      await pass();
      expect(got(path)).toEqual([]); // only viewer.ended is wanted
      at(T0 + 50 * SECOND);
      const current = await s.call("GET", `/api/v1/timers/${id}`, { key });
      const extended = await s.call("POST", `/api/v1/timers/${id}/extend`, {
        key,
        body: { seconds: 200 },
        headers: { "if-match": current.json.data.revision },
      });
      expect(extended.status, extended.text).toBe(200);
      await view(id, "?r=dy"); // ends at T0 + 350 s, with the extension
      at(T0 + 100 * SECOND);
      await pass();
      expect(got(path)).toEqual([]);
      at(T0 + 300 * SECOND);
      await pass();
      expect(got(path).map((b) => [b.type, b.timestamp, b.viewer.recipient_id])).toEqual([
        ["viewer.ended", iso(T0 + 300 * SECOND), "cy"],
      ]);
      const live = await s.call("GET", `/api/v1/timers/${id}`, { key });
      const archived = await s.call("POST", `/api/v1/timers/${id}/archive`, {
        key,
        headers: { "if-match": live.json.data.revision },
      });
      expect(archived.status, archived.text).toBe(200);
      at(T0 + 400 * SECOND);
      await pass();
      expect(got(path)).toHaveLength(1);
    });

    it("personalized timer: a recipient per r, else per deadline; ended at the deadline", async () => {
      const path = `/personalized-${backend}`;
      const { id } = await setup(
        path,
        { name: "Trial", type: "personalized", personalization: { source: "deadline" } },
        ["viewer.started", "viewer.ended"],
      );
      const deadline = "2030-01-01T12:05:00Z";
      await view(id, `?deadline=${deadline}&r=dee`);
      await view(id, `?deadline=${deadline}&r=dee`);
      await view(id, `?deadline=${deadline}`);
      await view(id, `?deadline=${deadline}`);
      await pass();
      expect(got(path).map((b) => [b.type, b.viewer])).toEqual([
        [
          "viewer.started",
          { recipient_id: null, started_at: iso(T0), ends_at: "2030-01-01T12:05:00.000Z" },
        ],
        [
          "viewer.started",
          { recipient_id: "dee", started_at: iso(T0), ends_at: "2030-01-01T12:05:00.000Z" },
        ],
      ]);
      at(Date.parse(deadline));
      await pass();
      expect(got(path).filter((b) => b.type === "viewer.ended")).toHaveLength(2);
    });

    it("at most max_viewer_events_per_timer_day recipients per timer per day; no rule, no event", async () => {
      const path = `/capped-${backend}`;
      const { id } = await setup(path, { name: "Offer", type: "duration", duration_seconds: 600 }, [
        "viewer.started",
      ]);
      for (const r of ["a1", "a2", "a3", "a4", "a5"]) await view(id, `?r=${r}`);
      await pass();
      expect(
        got(path)
          .map((b) => b.viewer.recipient_id)
          .sort(),
      ).toEqual(["a1", "a2", "a3"]);

      const quiet = `/quiet-${backend}`;
      const other = await setup(quiet, { name: "Offer", type: "duration", duration_seconds: 600 }, [
        "timer.ended",
      ]);
      await view(other.id, "?r=zed");
      at(T0 + 700 * SECOND);
      await pass();
      expect(got(quiet).map((b) => b.type)).toEqual(["timer.ended"]);
    });

    it("viewer events are opt-in per rule: a destination cannot subscribe to them", async () => {
      const key: Key = await s.key("production");
      const res = await s.call("POST", "/api/v1/webhook-destinations", {
        key,
        body: { url: `${receiver.url}/all`, events: ["viewer.started"] },
      });
      expect(expectError(res, 400, "validation_error").details?.field).toBe("events[0]");
    });
  });
}
