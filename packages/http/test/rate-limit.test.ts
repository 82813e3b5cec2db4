import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, startTestServer, type TestServer } from "./_harness";

let s: TestServer;
beforeAll(async () => {
  // Small limits so that windows fill quickly; per decisions.md the config overrides them.
  s = await startTestServer({
    sandbox: { requests_per_minute: 5 },
    plans: { starter: { requests_per_minute: 8, max_keys: 3 } },
  });
});
afterAll(() => s.close());

const MINUTE = 60_000;

describe("Rate limits (spec: Limits 1-4)", () => {
  it("every authenticated response carries RateLimit-Limit, -Remaining and -Reset (Unix s)", async () => {
    const t0 = 1_900_000_000_000 + 12_345; // mid-window
    s.setNow(t0);
    const key = await s.key();
    const res = await s.call("GET", "/api/v1/usage", { key });
    expect(res.headers.get("ratelimit-limit")).toBe("5");
    expect(res.headers.get("ratelimit-remaining")).toBe("4");
    const windowEnd = Math.ceil((t0 - (t0 % MINUTE) + MINUTE) / 1000);
    expect(res.headers.get("ratelimit-reset")).toBe(String(windowEnd));
    // Error responses after authentication carry them too.
    const notFound = await s.call("GET", "/api/v1/timers/00000000-0000-4000-8000-000000000000", {
      key,
    });
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get("ratelimit-remaining")).toBe("3");
    s.setNow(null);
  });

  it("over the limit: 429 rate_limited, Retry-After in whole seconds, message with the wait", async () => {
    const windowStart = 1_900_000_020_000 - (1_900_000_020_000 % MINUTE);
    s.setNow(windowStart + 45_500);
    const key = await s.key();
    for (let i = 0; i < 5; i++)
      expect((await s.call("GET", "/api/v1/usage", { key })).status).toBe(200);
    const res = await s.call("GET", "/api/v1/usage", { key });
    const err = expectError(res, 429, "rate_limited");
    expect(res.headers.get("retry-after")).toBe("15"); // 14.5 s left, rounded up
    expect(err.message).toContain("15 seconds");
    expect(res.headers.get("ratelimit-remaining")).toBe("0");
    // Fixed window: the counter resets at the boundary, it does not slide.
    s.setNow(windowStart + MINUTE);
    const after = await s.call("GET", "/api/v1/usage", { key });
    expect(after.status).toBe(200);
    expect(after.headers.get("ratelimit-remaining")).toBe("4");
    s.setNow(null);
  });

  it("Retry-After is at least 1 second at the very end of a window", async () => {
    const windowStart = 1_900_000_200_000 - (1_900_000_200_000 % MINUTE);
    s.setNow(windowStart + MINUTE - 1);
    const key = await s.key();
    for (let i = 0; i < 5; i++) await s.call("GET", "/api/v1/usage", { key });
    const res = await s.call("GET", "/api/v1/usage", { key });
    expectError(res, 429, "rate_limited");
    expect(res.headers.get("retry-after")).toBe("1");
    s.setNow(null);
  });

  it("counted per account too: two keys of one account share the account's window", async () => {
    const windowStart = 1_900_000_400_000 - (1_900_000_400_000 % MINUTE);
    s.setNow(windowStart + 1000);
    const a = await s.key("production", "shared-window");
    const b = await s.key("production", "shared-window");
    for (let i = 0; i < 4; i++) await s.call("GET", "/api/v1/usage", { key: a });
    for (let i = 0; i < 4; i++) await s.call("GET", "/api/v1/usage", { key: b });
    // Each key has used 4 of 8, but the account has used 8 of 8: the tighter one answers.
    expectError(await s.call("GET", "/api/v1/usage", { key: a }), 429, "rate_limited");
    expectError(await s.call("GET", "/api/v1/usage", { key: b }), 429, "rate_limited");
    // Another account is unaffected.
    const other = await s.key("production");
    expect((await s.call("GET", "/api/v1/usage", { key: other })).status).toBe(200);
    s.setNow(null);
  });

  it("requests that fail authentication do not count against a key", async () => {
    const windowStart = 1_900_000_600_000 - (1_900_000_600_000 % MINUTE);
    s.setNow(windowStart + 1000);
    const key = await s.key();
    for (let i = 0; i < 10; i++) {
      await s.call("GET", "/api/v1/usage", { headers: { authorization: "Bearer svc_test_wrong" } });
    }
    const res = await s.call("GET", "/api/v1/usage", { key });
    expect(res.headers.get("ratelimit-remaining")).toBe("4");
    s.setNow(null);
  });

  it("rate_limited and quota_exhausted are told apart by code", async () => {
    // quota_exhausted is covered in timers-create.test.ts; here: a rate-limited create is not a
    // quota error and consumes no allowance.
    const windowStart = 1_900_000_800_000 - (1_900_000_800_000 % MINUTE);
    s.setNow(windowStart + 1000);
    const key = await s.key();
    for (let i = 0; i < 5; i++) await s.call("GET", "/api/v1/usage", { key });
    const res = await s.call("POST", "/api/v1/timers", {
      key,
      body: { name: "x", type: "fixed", deadline_at: "2030-01-01T00:00:00Z" },
      headers: { "idempotency-key": "rl-1" },
    });
    expect(res.json.error.code).toBe("rate_limited");
    s.setNow(windowStart + MINUTE + 1000);
    const usage = await s.call("GET", "/api/v1/usage", { key });
    expect(usage.json.data.metrics[0].total).toBe(0);
    s.setNow(null);
  });
});
