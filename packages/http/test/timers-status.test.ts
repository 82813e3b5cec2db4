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
});
