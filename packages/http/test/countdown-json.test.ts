import { computeStatus, type TimerDefinition } from "@tminus/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTimer, startTestServer, type TestServer } from "./_harness";

// GET /t/{id}/countdown.json, what <tminus-countdown> reads once: the timing fields, the clock
// and the server's status at its own `now`, readable from any origin, and nothing private.
let s: TestServer;
let key: Awaited<ReturnType<TestServer["key"]>>;
const NOW = Date.parse("2026-11-27T10:00:00Z");

const timer = (body: Record<string, unknown>, publish = true) =>
  createTimer(
    s,
    key,
    { name: "Secret launch name", metadata: { campaign: "internal-42" }, ...body },
    publish,
  );

beforeAll(async () => {
  s = await startTestServer({}, { baseUrlIsServer: true });
  key = await s.key("production");
});
afterAll(() => s?.close());

describe("GET /t/{id}/countdown.json", () => {
  it("answers the timing fields, clock and status, for any origin, without name or metadata", async () => {
    const t = await timer({
      type: "recurring",
      timezone: "Europe/Paris",
      recurrence: {
        rrule: "FREQ=DAILY;BYHOUR=9",
        dtstart: "2026-01-01T09:00",
        ended_hold_seconds: 60,
      },
      look: {
        units: ["hours", "minutes"],
        locale: "de",
        style: "circles",
        cta: { url: "https://shop.example.com/x", label: "Buy" },
      },
      ended: { text: "Vorbei", redirect_url: "https://shop.example.com/over" },
    });
    s.setNow(NOW);
    const res = await fetch(`${s.url}/t/${t.id}/countdown.json`);
    s.setNow(null);
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const text = await res.text();
    for (const secret of ["Secret launch name", "internal-42", "shop.example.com"])
      expect(text).not.toContain(secret);
    const body = JSON.parse(text);
    expect(body.now).toBe(NOW);
    expect(body.timer.definition).toEqual({
      type: "recurring",
      timezone: "Europe/Paris",
      recurrence: {
        rrule: "FREQ=DAILY;BYHOUR=9",
        dtstart: "2026-01-01T09:00:00",
        exdates: [],
        ended_hold_seconds: 60,
      },
    });
    // The style reaches <tminus-countdown>, which draws it (issue 39).
    expect(body.look).toMatchObject({
      units: ["hours", "minutes"],
      locale: "de",
      style: "circles",
    });
    expect(body.ended).toEqual({ text: "Vorbei" });
    expect(body.urls.gif).toBe(`${s.url}/t/${t.id}/countdown.gif`);
    // What the page computes from the answer is the server's own status at `now`.
    const again = computeStatus(
      { definition: body.timer.definition as TimerDefinition, clock: body.timer.clock },
      body.now,
    );
    expect(again).toEqual(body.status);
    const api = await s.call("GET", `/api/v1/timers/${t.id}/status`, { key });
    expect(api.status).toBe(200);
  });

  it("carries a personalized recipient's resolved deadline, not the signing rules", async () => {
    const t = await timer({
      type: "personalized",
      personalization: { source: "deadline", max_seconds: 86_400 },
    });
    const res = await fetch(`${s.url}/t/${t.id}/countdown.json?deadline=2030-01-01T00:00:00Z`);
    const body = await res.json();
    expect(body.timer.viewer).toEqual({ deadline_at: Date.parse("2030-01-01T00:00:00Z") });
    expect(body.timer.definition.personalization).not.toHaveProperty("require_signature");
  });

  it("counts an embed view, and the GIF as a gif view", async () => {
    const t = await timer({ type: "fixed", deadline_at: "2030-01-01T00:00:00Z" });
    expect((await fetch(`${s.url}/t/${t.id}/countdown.json`)).status).toBe(200);
    expect((await fetch(`${s.url}/t/${t.id}/countdown.gif?frames=1`)).status).toBe(200);
    // Reading the analytics flushes the counted views first.
    const res = await s.call("GET", `/api/v1/timers/${t.id}/analytics?granularity=day`, { key });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.map((b: { by_kind: unknown }) => b.by_kind)).toEqual([
      { embed: 1, gif: 1, page: 0, png: 0 },
    ]);
  });

  it("answers 404 with JSON for a draft, an unknown id and a malformed one", async () => {
    const draft = await timer({ type: "fixed", deadline_at: "2030-01-01T00:00:00Z" }, false);
    for (const id of [draft.id, "0190a0a0-0000-7000-8000-000000000000", "not-a-uuid"]) {
      const res = await fetch(`${s.url}/t/${id}/countdown.json`);
      expect(res.status).toBe(404);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(await res.json()).toEqual({ available: false });
    }
  });
});
