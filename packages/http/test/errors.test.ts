import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, newKey, startTestServer, type TestServer } from "./_harness";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ max_body_bytes: 2048 });
});
afterAll(() => s.close());

describe("Errors and envelope (spec: Errors, Response envelope)", () => {
  it("unknown routes are 404 not_found with the envelope", async () => {
    const key = await s.key();
    expectError(await s.call("GET", "/api/v1/nothing-here", { key }), 404, "not_found");
    expectError(await s.call("GET", "/elsewhere", { key }), 404, "not_found");
    const wrongMethod = await s.call("DELETE", "/api/v1/usage", { key });
    expectError(wrongMethod, 404, "not_found");
    expect(wrongMethod.headers.get("allow")).toBe("GET");
  });

  it("a body that is not JSON is 400 validation_error naming body", async () => {
    const key = await s.key();
    const err = expectError(
      await s.call("POST", "/api/v1/timers", {
        key,
        body: "{not json",
        headers: { "idempotency-key": newKey() },
      }),
      400,
      "validation_error",
    );
    expect(err.details?.field).toBe("body");
  });

  it("a body over the configured limit is 400 validation_error (limit in the message)", async () => {
    const key = await s.key();
    const err = expectError(
      await s.call("POST", "/api/v1/timers", {
        key,
        body: { name: "x".repeat(5000), type: "fixed", deadline_at: "2030-01-01T00:00:00Z" },
        headers: { "idempotency-key": newKey() },
      }),
      400,
      "validation_error",
    );
    expect(err.message).toContain("2048");
  });

  it("a wrong Content-Type is a validation_error", async () => {
    const key = await s.key();
    const err = expectError(
      await s.call("POST", "/api/v1/timers", {
        key,
        body: "name=x",
        headers: {
          "idempotency-key": newKey(),
          "content-type": "application/x-www-form-urlencoded",
        },
      }),
      400,
      "validation_error",
    );
    expect(err.details?.field).toBe("Content-Type");
  });

  it("success bodies carry data and a UUID request_id; X-Request-Id on every response", async () => {
    const key = await s.key();
    const res = await s.call("GET", "/api/v1/usage", { key });
    expect(res.status).toBe(200);
    expect(res.json.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get("x-request-id")).toBe(res.json.request_id);
    expect(res.json.error).toBeUndefined();
  });

  it("/api/v1 sends no CORS grant, not even to a preflight", async () => {
    const key = await s.key();
    const res = await s.call("GET", "/api/v1/usage", {
      key,
      headers: { origin: "https://evil.example" },
    });
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    const preflight = await s.call("OPTIONS", "/api/v1/usage", {
      headers: { origin: "https://evil.example", "access-control-request-method": "GET" },
    });
    expect(preflight.status).toBeGreaterThanOrEqual(400);
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("an invalid timer id in the path is 400 invalid_timer_id", async () => {
    const key = await s.key();
    for (const path of [
      "/api/v1/timers/123",
      "/api/v1/timers/not-a-uuid/status",
      "/api/v1/timers/x/duplicate",
    ]) {
      const method = path.endsWith("duplicate") ? "POST" : "GET";
      expectError(await s.call(method, path, { key }), 400, "invalid_timer_id");
    }
  });

  it("a timer id that is a UUID but absent is 404 not_found", async () => {
    const key = await s.key();
    expectError(
      await s.call("GET", "/api/v1/timers/00000000-0000-4000-8000-000000000000", { key }),
      404,
      "not_found",
    );
  });
});
