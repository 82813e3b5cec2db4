import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, fixedTimer, newKey, startTestServer, type TestServer } from "./_harness";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

describe("Authentication (spec: Authentication, Authentication failures)", () => {
  it("401 unauthorized without an Authorization header", async () => {
    const res = await s.call("GET", "/api/v1/usage");
    expectError(res, 401, "unauthorized");
    expect(res.headers.get("ratelimit-limit")).toBeNull();
  });

  it.each([
    ["Basic abc"],
    ["Bearer"],
    ["Bearer  svc_test_x"],
    ["bearer svc_test_x"],
    ["Bearer a b"],
    ["Token svc_test_x"],
  ])("401 unauthorized for a malformed header %j", async (header) => {
    const res = await s.call("GET", "/api/v1/usage", { headers: { authorization: header } });
    expectError(res, 401, "unauthorized");
  });

  it("401 invalid_api_key for an unknown key (well-formed or not)", async () => {
    const key = await s.key();
    const flipped = key.secret.slice(0, -1) + (key.secret.endsWith("A") ? "B" : "A");
    expectError(await s.call("GET", "/api/v1/usage", { key: flipped }), 401, "invalid_api_key");
    expectError(
      await s.call("GET", "/api/v1/usage", { key: "svc_test_nope" }),
      401,
      "invalid_api_key",
    );
    expectError(
      await s.call("GET", "/api/v1/usage", { key: "sk_live_123" }),
      401,
      "invalid_api_key",
    );
  });

  it("a key's secret is never stored: only its SHA-256 hash", async () => {
    const key = await s.key();
    const keys = await s.store.listApiKeys((await s.store.findAccountByName(key.account))!.id);
    expect(keys[0]!.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(keys)).not.toContain(key.secret);
    expect(key.secret.length - "svc_test_".length).toBeGreaterThanOrEqual(22); // >128 bits
  });

  it("revocation takes effect on the next request; two keys can be live at once", async () => {
    const first = await s.key("production", "rotating");
    const second = await s.key("production", "rotating");
    expect((await s.call("GET", "/api/v1/usage", { key: first })).status).toBe(200);
    await s.admin.revokeKey(first.prefix);
    expectError(await s.call("GET", "/api/v1/usage", { key: first }), 401, "invalid_api_key");
    expect((await s.call("GET", "/api/v1/usage", { key: second })).status).toBe(200);
  });

  it("rolling a key (rule 7 for a sandbox's single key): both work, the old one says until when", async () => {
    const T = Date.UTC(2026, 10, 23, 12);
    s.setNow(T);
    const old = await s.key("sandbox", "rolling-solo");
    const { replacement, rolled } = await s.admin.rollKey(old.prefix, { expiresInMs: 3_600_000 });
    expect(rolled).toMatchObject({ id: old.id, status: "expiring" });
    expect(rolled.expires_at).toBe(new Date(T + 3_600_000).toISOString());
    const byOld = await s.call("GET", "/api/v1/usage", { key: old });
    expect(byOld.status).toBe(200);
    expect(byOld.headers.get("tminus-key-expires-at")).toBe(rolled.expires_at);
    const byNew = await s.call("GET", "/api/v1/usage", { key: replacement });
    expect(byNew.status).toBe(200);
    expect(byNew.headers.get("tminus-key-expires-at")).toBeNull();
    // The replacement took the only slot; the rolled key holds none.
    await expect(
      s.admin.issueKey({ account: "rolling-solo", environment: "sandbox" }),
    ).rejects.toThrow(/limit/);
    await expect(s.admin.rollKey(old.prefix)).rejects.toThrow(/already rolled/);
    s.setNow(T + 3_600_000);
    expectError(await s.call("GET", "/api/v1/usage", { key: old }), 401, "invalid_api_key");
    expect((await s.call("GET", "/api/v1/usage", { key: replacement })).status).toBe(200);
    const listed = await s.admin.listKeys({ account: "rolling-solo" });
    expect(listed.find((k) => k.id === old.id)?.status).toBe("expired");
    await expect(s.admin.rollKey(old.prefix)).rejects.toThrow(/no live key/);
    await expect(s.admin.rollKey(replacement.prefix, { expiresInMs: 0 })).rejects.toThrow(
      /30 days/,
    );
    s.setNow(null);
  });

  it("403 forbidden when the key is not scoped for the route", async () => {
    const key = await s.key("sandbox", undefined, ["usage:read"]);
    expect((await s.call("GET", "/api/v1/usage", { key })).status).toBe(200);
    const err = expectError(await s.call("GET", "/api/v1/timers", { key }), 403, "forbidden");
    expect(err.message).toContain("timers:read");
  });

  it("403 suspended while the account is suspended, 200 again after reactivation", async () => {
    const key = await s.key("production", "suspendable");
    await s.admin.suspendAccount("suspendable");
    expectError(await s.call("GET", "/api/v1/usage", { key }), 403, "suspended");
    await s.admin.activateAccount("suspendable");
    expect((await s.call("GET", "/api/v1/usage", { key })).status).toBe(200);
  });

  it("a key reaches only its own environment: the other environment's timer is 404", async () => {
    const sandbox = await s.key("sandbox", "two-envs");
    const production = await s.key("production", "two-envs");
    const created = await s.call("POST", "/api/v1/timers", {
      key: sandbox,
      body: fixedTimer(),
      headers: { "idempotency-key": newKey() },
    });
    expect(created.status).toBe(201);
    const id = created.json.data.id;
    expect((await s.call("GET", `/api/v1/timers/${id}`, { key: sandbox })).status).toBe(200);
    expectError(await s.call("GET", `/api/v1/timers/${id}`, { key: production }), 404, "not_found");
    expectError(
      await s.call("GET", `/api/v1/timers/${id}/status`, { key: production }),
      404,
      "not_found",
    );
    const list = await s.call("GET", "/api/v1/timers", { key: production });
    expect(list.json.data).toEqual([]);
    const usage = await s.call("GET", "/api/v1/usage", { key: production });
    expect(usage.json.data.environment).toBe("production");
  });

  it("another account's timer is 404 too", async () => {
    const a = await s.key("production");
    const b = await s.key("production");
    const created = await s.call("POST", "/api/v1/timers", {
      key: a,
      body: fixedTimer(),
      headers: { "idempotency-key": newKey() },
    });
    expectError(
      await s.call("GET", `/api/v1/timers/${created.json.data.id}`, { key: b }),
      404,
      "not_found",
    );
  });

  it("nothing else authenticates: not a query parameter, not a cookie", async () => {
    const key = await s.key();
    expectError(await s.call("GET", `/api/v1/usage?api_key=${key.secret}`), 401, "unauthorized");
    expectError(
      await s.call("GET", "/api/v1/usage", { headers: { cookie: `api_key=${key.secret}` } }),
      401,
      "unauthorized",
    );
  });

  it("the plan's key limit holds: sandbox allows 1 live key, starter 3 production keys", async () => {
    await s.key("sandbox", "limited");
    await expect(s.key("sandbox", "limited")).rejects.toThrow(/limit/);
    for (let i = 0; i < 3; i++) await s.key("production", "limited");
    await expect(s.key("production", "limited")).rejects.toThrow(/limit/);
  });
});
