import { signPersonalizedParams } from "@tminus/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, fixedTimer, newKey, startTestServer, type TestServer } from "./_harness";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

describe("GET /timers/{id}/status (spec: Timer status reply)", () => {
  it("gives remaining.total_seconds, ended and server_time from the server clock", async () => {
    const key = await s.key("production");
    const created = await s.call("POST", "/api/v1/timers", {
      key,
      body: fixedTimer({ deadline_at: "2030-01-01T00:00:00Z" }),
      headers: { "idempotency-key": newKey() },
    });
    const id = created.json.data.id;
    const deadline = Date.UTC(2030, 0, 1);
    s.setNow(deadline - 90_061_500); // 1 d 1 h 1 min 1.5 s before
    let st = (await s.call("GET", `/api/v1/timers/${id}/status`, { key })).json.data;
    expect(st.remaining).toEqual({
      total_seconds: 90_062,
      days: 1,
      hours: 1,
      minutes: 1,
      seconds: 2,
    });
    expect(st.ended).toBe(false);
    expect(st.server_time).toBe(new Date(deadline - 90_061_500).toISOString());
    expect(st.target_at).toBe("2030-01-01T00:00:00.000Z");
    s.setNow(deadline);
    st = (await s.call("GET", `/api/v1/timers/${id}/status`, { key })).json.data;
    expect(st.remaining.total_seconds).toBe(0);
    expect(st.ended).toBe(true);
    s.setNow(deadline + 5000);
    st = (await s.call("GET", `/api/v1/timers/${id}/status`, { key })).json.data;
    expect(st.remaining.total_seconds).toBe(0); // never negative
    expect(st.ended).toBe(true);
    s.setNow(null);
  });

  it("a draft duration timer has not started: it shows its full duration", async () => {
    const key = await s.key("production");
    const created = await s.call("POST", "/api/v1/timers", {
      key,
      body: { name: "Evergreen", type: "duration", duration_seconds: 7200 },
      headers: { "idempotency-key": newKey() },
    });
    const st = (await s.call("GET", `/api/v1/timers/${created.json.data.id}/status`, { key })).json
      .data;
    expect(st).toMatchObject({ state: "not_started", ended: false, target_at: null });
    expect(st.remaining.total_seconds).toBe(7200);
  });

  it("status of an unknown or malformed id", async () => {
    const key = await s.key();
    expectError(
      await s.call("GET", "/api/v1/timers/nope/status", { key }),
      400,
      "invalid_timer_id",
    );
    expectError(
      await s.call("GET", "/api/v1/timers/00000000-0000-4000-8000-00000000abcd/status", { key }),
      404,
      "not_found",
    );
  });

  it("recurring: counts to the next occurrence in the timer's zone and names it", async () => {
    const key = await s.key("production");
    const created = await s.call("POST", "/api/v1/timers", {
      key,
      body: {
        name: "Weekly drop",
        type: "recurring",
        timezone: "America/New_York",
        recurrence: {
          rrule: "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0",
          dtstart: "2026-01-05T09:00:00",
        },
      },
      headers: { "idempotency-key": newKey() },
    });
    expect(created.status, created.text).toBe(201);
    // Friday 2026-03-06 12:00 UTC; the next Monday 09:00 New York is 2026-03-09, the first day
    // of daylight-saving time (EDT, UTC-4): 13:00 UTC, not 14:00.
    s.setNow(Date.UTC(2026, 2, 6, 12));
    const st = (await s.call("GET", `/api/v1/timers/${created.json.data.id}/status`, { key })).json
      .data;
    expect(st).toMatchObject({
      state: "running",
      ended: false,
      target_at: "2026-03-09T13:00:00.000Z",
      next_occurrence_at: "2026-03-09T13:00:00.000Z",
      final: false,
    });
    expect(st.remaining.total_seconds).toBe(3 * 86400 + 3600);
    s.setNow(null);
  });

  it("duration: an explicit start; without one, publication (drafts: not started)", async () => {
    const key = await s.key("production");
    const created = await s.call("POST", "/api/v1/timers", {
      key,
      body: { name: "Evergreen", type: "duration", duration_seconds: 3600 },
      headers: { "idempotency-key": newKey() },
    });
    const id = created.json.data.id;
    s.setNow(Date.UTC(2029, 0, 1, 0, 30));
    const st = (
      await s.call("GET", `/api/v1/timers/${id}/status?start=2029-01-01T00:00:00Z`, { key })
    ).json.data;
    expect(st.remaining.total_seconds).toBe(1800);
    const unix = (
      await s.call("GET", `/api/v1/timers/${id}/status?start=${Date.UTC(2029, 0, 1) / 1000}`, {
        key,
      })
    ).json.data;
    expect(unix.remaining.total_seconds).toBe(1800);
    expectError(
      await s.call("GET", `/api/v1/timers/${id}/status?start=yesterday`, { key }),
      400,
      "validation_error",
    );
    expectError(
      await s.call("GET", `/api/v1/timers/${id}/status?deadline=2029-01-01T00:00:00Z`, { key }),
      400,
      "validation_error",
    );
    s.setNow(null);
  });

  it("personalized: the recipient's deadline from the query, signed when required, else the fallback", async () => {
    const key = await s.key("production");
    const create = (personalization: Record<string, unknown>) =>
      s.call("POST", "/api/v1/timers", {
        key,
        body: { name: "Per recipient", type: "personalized", personalization },
        headers: { "idempotency-key": newKey() },
      });
    s.setNow(Date.UTC(2029, 0, 1));
    const open = (
      await create({ source: "deadline", fallback_deadline_at: "2029-01-01T02:00:00Z" })
    ).json.data;
    const path = `/api/v1/timers/${open.id}/status`;
    let st = (await s.call("GET", `${path}?deadline=2029-01-01T01:00:00Z`, { key })).json.data;
    expect(st).toMatchObject({ remaining: { total_seconds: 3600 }, deadline_source: "viewer" });
    st = (await s.call("GET", path, { key })).json.data;
    expect(st).toMatchObject({ remaining: { total_seconds: 7200 }, deadline_source: "fallback" });

    const signed = (await create({ source: "deadline", require_signature: true })).json.data;
    expect(signed.signing_secret).toMatch(/^psk_/);
    const spath = `/api/v1/timers/${signed.id}/status`;
    const params = { deadline: "2029-01-01T00:10:00Z" };
    st = (await s.call("GET", `${spath}?deadline=${params.deadline}`, { key })).json.data;
    expect(st).toMatchObject({ ended: true, deadline_source: "none" }); // unsigned: refused
    const sig = signPersonalizedParams(signed.signing_secret, params);
    st = (await s.call("GET", `${spath}?deadline=${params.deadline}&sig=${sig}`, { key })).json
      .data;
    expect(st).toMatchObject({ remaining: { total_seconds: 600 }, deadline_source: "viewer" });
    const tampered = `${spath}?deadline=2029-01-01T05:00:00Z&sig=${sig}`;
    expect((await s.call("GET", tampered, { key })).json.data.deadline_source).toBe("none");
    s.setNow(null);
  });
});
