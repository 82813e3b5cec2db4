import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedTimer, newKey, startTestServer, type TestServer } from "./_harness";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

describe("GET /usage (spec: Usage)", () => {
  it("shows environment, the UTC calendar-month cycle and both metrics", async () => {
    s.setNow(Date.UTC(2026, 10, 22, 9, 30));
    const key = await s.key("production");
    const res = await s.call("GET", "/api/v1/usage", { key });
    expect(res.status).toBe(200);
    const u = res.json.data;
    expect(u.environment).toBe("production");
    expect(u.cycle).toEqual({
      id: "2026-11",
      starts_at: "2026-11-01T00:00:00.000Z",
      resets_at: "2026-12-01T00:00:00.000Z",
    });
    const newTimers = u.metrics.find((m: { metric: string }) => m.metric === "new_timers");
    expect(newTimers).toMatchObject({
      total: 0,
      limit: 1000,
      remaining: 1000,
      warning_threshold: 800,
    });
    const requests = u.metrics.find((m: { metric: string }) => m.metric === "api_requests");
    expect(requests).toMatchObject({ limit: "unlimited", remaining: "unlimited" });
    expect(requests.total).toBe(1); // this request itself
    s.setNow(null);
  });

  it("counts new timers and API requests; reading usage creates nothing", async () => {
    const key = await s.key("sandbox");
    for (let i = 0; i < 3; i++) {
      await s.call("POST", "/api/v1/timers", {
        key,
        body: fixedTimer(),
        headers: { "idempotency-key": newKey() },
      });
    }
    await s.call("GET", "/api/v1/usage", { key });
    const res = await s.call("GET", "/api/v1/usage", { key });
    const [timers, requests] = res.json.data.metrics;
    expect(timers).toMatchObject({ metric: "new_timers", total: 3, limit: 100, remaining: 97 });
    expect(requests).toMatchObject({ metric: "api_requests", total: 5 });
  });

  it("the allowance refills when the cycle resets", async () => {
    s.setNow(Date.UTC(2026, 0, 31, 23, 59));
    const key = await s.key("sandbox");
    await s.call("POST", "/api/v1/timers", {
      key,
      body: fixedTimer(),
      headers: { "idempotency-key": newKey() },
    });
    expect((await s.call("GET", "/api/v1/usage", { key })).json.data.metrics[0].total).toBe(1);
    s.setNow(Date.UTC(2026, 1, 1, 0, 0));
    const feb = (await s.call("GET", "/api/v1/usage", { key })).json.data;
    expect(feb.cycle.id).toBe("2026-02");
    expect(feb.metrics[0].total).toBe(0);
    s.setNow(null);
  });

  it("answers 200 to every valid key, whatever its scopes: a 200 confirms the key", async () => {
    for (const scopes of [["timers:read"], ["webhooks:write"], ["request_log:read"]]) {
      const key = await s.key("production", undefined, scopes);
      const res = await s.call("GET", "/api/v1/usage", { key });
      expect(res.status, scopes.join()).toBe(200);
      expect(res.json.data.environment).toBe("production");
    }
  });
});
