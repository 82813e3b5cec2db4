import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, fixedTimer, newKey, startTestServer, type TestServer } from "./_harness";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({
    sandbox: { new_timers_per_cycle: 5, requests_per_minute: 10_000 },
    plans: { starter: { requests_per_minute: 10_000 } },
  });
});
afterAll(() => s.close());

const post = (key: Parameters<TestServer["call"]>[2] extends infer O ? O : never) =>
  s.call("POST", "/api/v1/timers", key);

describe("POST /timers create rules (spec: Create rules 1-4)", () => {
  it("creates a timer: 201, the timer in data, ETag and revision", async () => {
    const key = await s.key();
    const res = await post({
      key,
      body: fixedTimer({ deadline_at: "2030-01-01T01:00:00+01:00" }),
      headers: { "idempotency-key": newKey() },
    });
    expect(res.status).toBe(201);
    const t = res.json.data;
    expect(t).toMatchObject({
      name: "Launch",
      type: "fixed",
      status: "draft",
      deadline_at: "2030-01-01T00:00:00.000Z",
    });
    expect(t.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get("etag")).toBe(`"${t.revision}"`);
    expect(res.headers.get("location")).toContain(`/api/v1/timers/${t.id}`);
    const read = await s.call("GET", `/api/v1/timers/${t.id}`, { key });
    expect(read.json.data).toEqual(t);
  });

  it("rule 1: no Idempotency-Key is 400 missing_field naming the header", async () => {
    const key = await s.key();
    const err = expectError(await post({ key, body: fixedTimer() }), 400, "missing_field");
    expect(err.message).toContain("Idempotency-Key");
  });

  it("an Idempotency-Key outside 1..255 printable ASCII is a validation_error", async () => {
    const key = await s.key();
    for (const bad of ["x".repeat(256), "tab\there", "ключ"]) {
      const res = await post({
        key,
        body: fixedTimer(),
        headers: { "idempotency-key": encodeURI(bad) === bad ? bad : bad },
      }).catch(() => null);
      if (res) expectError(res, 400, "validation_error");
    }
  });

  it("rule 2: same key, different body is 409 idempotency_conflict", async () => {
    const key = await s.key();
    const idem = newKey();
    expect(
      (await post({ key, body: fixedTimer(), headers: { "idempotency-key": idem } })).status,
    ).toBe(201);
    expectError(
      await post({
        key,
        body: fixedTimer({ name: "Other" }),
        headers: { "idempotency-key": idem },
      }),
      409,
      "idempotency_conflict",
    );
  });

  it("same key and body replays the first response (status and body), metered once", async () => {
    const key = await s.key();
    const idem = newKey();
    const first = await post({ key, body: fixedTimer(), headers: { "idempotency-key": idem } });
    // Key order and spacing do not change the request.
    const again = await post({
      key,
      body: '{ "deadline_at": "2030-01-01T00:00:00Z", "type": "fixed", "name": "Launch" }',
      headers: { "idempotency-key": idem },
    });
    expect(again.status).toBe(first.status);
    expect(again.text).toBe(first.text);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const usage = await s.call("GET", "/api/v1/usage", { key });
    expect(usage.json.data.metrics[0].total).toBe(1);
    const list = await s.call("GET", "/api/v1/timers", { key });
    expect(list.json.data).toHaveLength(1);
  });

  it("rule 3: deadline_at without Z or offset is 400 validation_error naming the field", async () => {
    const key = await s.key();
    for (const deadline_at of [
      "2030-01-01T00:00:00",
      "2030-01-01",
      "tomorrow",
      "2030-02-30T00:00:00Z",
    ]) {
      const err = expectError(
        await post({
          key,
          body: fixedTimer({ deadline_at }),
          headers: { "idempotency-key": newKey() },
        }),
        400,
        "validation_error",
      );
      expect(err.message).toContain("deadline_at");
    }
  });

  it("validation failures store nothing: the same key then works with a fixed body", async () => {
    const key = await s.key();
    const idem = newKey();
    expectError(
      await post({
        key,
        body: fixedTimer({ deadline_at: "2030-01-01T00:00:00" }),
        headers: { "idempotency-key": idem },
      }),
      400,
      "validation_error",
    );
    expect(
      (await post({ key, body: fixedTimer(), headers: { "idempotency-key": idem } })).status,
    ).toBe(201);
  });

  it("failed authentication stores nothing under the key", async () => {
    const key = await s.key();
    const idem = newKey();
    expectError(
      await post({
        key: "svc_test_wrong",
        body: fixedTimer({ name: "A" }),
        headers: { "idempotency-key": idem },
      }),
      401,
      "invalid_api_key",
    );
    expect(
      (await post({ key, body: fixedTimer({ name: "B" }), headers: { "idempotency-key": idem } }))
        .status,
    ).toBe(201);
  });

  it("missing fields are missing_field; a bad timezone is invalid_timezone", async () => {
    const key = await s.key();
    const err = expectError(
      await post({
        key,
        body: { type: "fixed", deadline_at: "2030-01-01T00:00:00Z" },
        headers: { "idempotency-key": newKey() },
      }),
      400,
      "missing_field",
    );
    expect(err.message).toContain("name");
    expectError(
      await post({
        key,
        body: fixedTimer({ timezone: "Asia/Calcutta" }),
        headers: { "idempotency-key": newKey() },
      }),
      400,
      "invalid_timezone",
    );
    expect(
      (
        await post({
          key,
          body: fixedTimer({ timezone: "Asia/Kolkata" }),
          headers: { "idempotency-key": newKey() },
        })
      ).status,
    ).toBe(201);
  });

  it("all four types validate (recurring and personalized fields included)", async () => {
    const key = await s.key("production");
    const bodies = [
      { name: "Evergreen", type: "duration", duration_seconds: 3600 },
      {
        name: "Weekly",
        type: "recurring",
        timezone: "Europe/Berlin",
        recurrence: {
          rrule: "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0",
          dtstart: "2026-01-05T09:00:00",
        },
      },
      { name: "Per recipient", type: "personalized", personalization: { source: "deadline" } },
    ];
    for (const body of bodies) {
      const res = await post({ key, body, headers: { "idempotency-key": newKey() } });
      expect(res.status, res.text).toBe(201);
      expect(res.json.data.type).toBe(body.type);
    }
    expectError(
      await post({
        key,
        body: {
          name: "x",
          type: "duration",
          duration_seconds: 60,
          deadline_at: "2030-01-01T00:00:00Z",
        },
        headers: { "idempotency-key": newKey() },
      }),
      400,
      "validation_error",
    );
    expectError(
      await post({
        key,
        body: { name: "x", type: "sundial" },
        headers: { "idempotency-key": newKey() },
      }),
      400,
      "validation_error",
    );
  });

  it("Idempotency-Keys are scoped to account and environment", async () => {
    const idem = newKey();
    const a = await s.key("sandbox", "idem-scope");
    const b = await s.key("production", "idem-scope");
    const c = await s.key("sandbox");
    const ra = await post({
      key: a,
      body: fixedTimer({ name: "A" }),
      headers: { "idempotency-key": idem },
    });
    const rb = await post({
      key: b,
      body: fixedTimer({ name: "B" }),
      headers: { "idempotency-key": idem },
    });
    const rc = await post({
      key: c,
      body: fixedTimer({ name: "C" }),
      headers: { "idempotency-key": idem },
    });
    expect([ra.status, rb.status, rc.status]).toEqual([201, 201, 201]);
    expect(new Set([ra.json.data.id, rb.json.data.id, rc.json.data.id]).size).toBe(3);
  });

  it("20 concurrent creates with one Idempotency-Key create exactly one timer", async () => {
    const key = await s.key("production");
    const idem = newKey();
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        post({ key, body: fixedTimer(), headers: { "idempotency-key": idem } }),
      ),
    );
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect(new Set(results.map((r) => r.json.data.id)).size).toBe(1);
    expect(results.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(19);
    const usage = await s.call("GET", "/api/v1/usage", { key });
    expect(usage.json.data.metrics[0].total).toBe(1);
  });

  it("rule 4: a spent allowance is 429 quota_exhausted with details; reads keep working", async () => {
    const key = await s.key("sandbox");
    const ids: string[] = [];
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        post({ key, body: fixedTimer(), headers: { "idempotency-key": newKey() } }),
      ),
    );
    for (const r of results) if (r.status === 201) ids.push(r.json.data.id);
    expect(ids).toHaveLength(5);
    const refused = results.filter((r) => r.status === 429);
    expect(refused).toHaveLength(3);
    const err = expectError(refused[0]!, 429, "quota_exhausted");
    const now = new Date();
    const resets = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
    expect(err.details).toEqual({ metric: "new_timers", limit: 5, used: 5, resets_at: resets });
    expect(refused[0]!.headers.get("retry-after")).toBeNull();
    // Duplicates are metered too.
    expectError(
      await s.call("POST", `/api/v1/timers/${ids[0]}/duplicate`, { key }),
      429,
      "quota_exhausted",
    );
    // Everything else keeps working.
    expect((await s.call("GET", `/api/v1/timers/${ids[0]}`, { key })).status).toBe(200);
    expect((await s.call("GET", `/api/v1/timers/${ids[0]}/status`, { key })).status).toBe(200);
    expect((await s.call("GET", "/api/v1/timers", { key })).status).toBe(200);
    expect((await s.call("GET", "/api/v1/usage", { key })).json.data.metrics[0]).toMatchObject({
      total: 5,
      remaining: 0,
    });
  });
});

describe("POST /timers/{id}/duplicate", () => {
  it("creates a draft copy (new id, same definition), metered as a new timer", async () => {
    const key = await s.key("production");
    const src = await post({
      key,
      body: fixedTimer({ metadata: { campaign: "bf" } }),
      headers: { "idempotency-key": newKey() },
    });
    const dup = await s.call("POST", `/api/v1/timers/${src.json.data.id}/duplicate`, { key });
    expect(dup.status).toBe(201);
    expect(dup.json.data.id).not.toBe(src.json.data.id);
    expect(dup.json.data).toMatchObject({
      name: "Launch (copy)",
      type: "fixed",
      status: "draft",
      deadline_at: src.json.data.deadline_at,
      metadata: { campaign: "bf" },
    });
    const named = await s.call("POST", `/api/v1/timers/${src.json.data.id}/duplicate`, {
      key,
      body: { name: "Second" },
    });
    expect(named.json.data.name).toBe("Second");
    expectError(
      await s.call("POST", `/api/v1/timers/${src.json.data.id}/duplicate`, {
        key,
        body: { type: "duration" },
      }),
      400,
      "validation_error",
    );
    const usage = await s.call("GET", "/api/v1/usage", { key });
    expect(usage.json.data.metrics[0].total).toBe(3);
  });

  it("accepts an optional Idempotency-Key and replays", async () => {
    const key = await s.key("production");
    const src = await post({ key, body: fixedTimer(), headers: { "idempotency-key": newKey() } });
    const idem = newKey();
    const a = await s.call("POST", `/api/v1/timers/${src.json.data.id}/duplicate`, {
      key,
      headers: { "idempotency-key": idem },
    });
    const b = await s.call("POST", `/api/v1/timers/${src.json.data.id}/duplicate`, {
      key,
      headers: { "idempotency-key": idem },
    });
    expect(b.text).toBe(a.text);
    expect(b.headers.get("idempotent-replayed")).toBe("true");
  });
});
