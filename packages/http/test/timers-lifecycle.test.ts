import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  expectError,
  fixedTimer,
  newKey,
  startTestServer,
  type TestResponse,
  type TestServer,
} from "./_harness";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({
    sandbox: { requests_per_minute: 100_000, new_timers_per_cycle: 3 },
    plans: { starter: { requests_per_minute: 100_000, new_timers_per_cycle: 3 } },
  });
});
afterAll(() => s.close());

type Key = Awaited<ReturnType<TestServer["key"]>>;

async function create(key: Key, body: Record<string, unknown> = fixedTimer()) {
  const res = await s.call("POST", "/api/v1/timers", {
    key,
    body,
    headers: { "idempotency-key": newKey() },
  });
  expect(res.status, res.text).toBe(201);
  return res.json.data as { id: string; revision: string; [k: string]: unknown };
}

function act(key: Key, id: string, action: string, revision: string | null, body?: unknown) {
  const headers: Record<string, string> = revision === null ? {} : { "if-match": `"${revision}"` };
  return s.call("POST", `/api/v1/timers/${id}/${action}`, { key, headers, body });
}

const etag = (res: TestResponse) => res.headers.get("etag")!.replaceAll('"', "");

describe("PATCH and DELETE with If-Match (decisions.md: Timers)", () => {
  it("PATCH needs If-Match: missing is 400 missing_field, stale is 409 revision_conflict", async () => {
    const key = await s.key("production");
    const t = await create(key);
    const missing = await s.call("PATCH", `/api/v1/timers/${t.id}`, { key, body: { name: "B" } });
    expect(expectError(missing, 400, "missing_field").details?.field).toBe("If-Match");
    const ok = await s.call("PATCH", `/api/v1/timers/${t.id}`, {
      key,
      body: { name: "B" },
      headers: { "if-match": `"${t.revision}"` },
    });
    expect(ok.status).toBe(200);
    expect(ok.json.data).toMatchObject({ name: "B" });
    expect(ok.json.data.revision).not.toBe(t.revision);
    expect(etag(ok)).toBe(ok.json.data.revision);
    const stale = await s.call("PATCH", `/api/v1/timers/${t.id}`, {
      key,
      body: { name: "C" },
      headers: { "if-match": `"${t.revision}"` },
    });
    const err = expectError(stale, 409, "revision_conflict");
    expect(err.details?.current_revision).toBe(ok.json.data.revision);
    // The bare revision from the body works as well as the quoted ETag.
    const bare = await s.call("PATCH", `/api/v1/timers/${t.id}`, {
      key,
      body: { name: "D" },
      headers: { "if-match": ok.json.data.revision },
    });
    expect(bare.status).toBe(200);
    for (const bad of ["*", 'W/"r1"', "nonsense"]) {
      expectError(
        await s.call("PATCH", `/api/v1/timers/${t.id}`, {
          key,
          body: { name: "E" },
          headers: { "if-match": bad },
        }),
        400,
        "validation_error",
      );
    }
  });

  it("PATCH validates like create: fields, timezone, type and status are not patchable", async () => {
    const key = await s.key("production");
    const t = await create(key);
    const patch = (body: unknown) =>
      s.call("PATCH", `/api/v1/timers/${t.id}`, { key, body, headers: { "if-match": t.revision } });
    expectError(await patch({ deadline_at: "2030-01-01T00:00:00" }), 400, "validation_error");
    expectError(await patch({ timezone: "Europe/Kiev" }), 400, "invalid_timezone");
    expectError(await patch({ type: "duration" }), 400, "validation_error");
    expectError(await patch({ status: "published" }), 400, "validation_error");
    expectError(await patch({ duration_seconds: 60 }), 400, "validation_error");
    const res = await patch({ deadline_at: "2031-06-01T12:00:00+02:00", timezone: "Europe/Kyiv" });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data).toMatchObject({
      deadline_at: "2031-06-01T10:00:00.000Z",
      timezone: "Europe/Kyiv",
    });
  });

  it("20 concurrent PATCHes with the same revision: exactly one wins, the rest conflict", async () => {
    const key = await s.key("production");
    const t = await create(key);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        s.call("PATCH", `/api/v1/timers/${t.id}`, {
          key,
          body: { name: `N${i}` },
          headers: { "if-match": `"${t.revision}"` },
        }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    const conflicts = results.filter((r) => r.status === 409);
    expect(conflicts).toHaveLength(19);
    for (const r of conflicts) expectError(r, 409, "revision_conflict");
    const winner = results.find((r) => r.status === 200)!.json.data.name;
    const read = await s.call("GET", `/api/v1/timers/${t.id}`, { key });
    expect(read.json.data.name).toBe(winner);
  });

  it("DELETE needs If-Match; a deleted timer is gone from read, status, list and activity", async () => {
    const key = await s.key("production");
    const t = await create(key);
    expectError(await s.call("DELETE", `/api/v1/timers/${t.id}`, { key }), 400, "missing_field");
    const del = await s.call("DELETE", `/api/v1/timers/${t.id}`, {
      key,
      headers: { "if-match": t.revision },
    });
    expect(del.status).toBe(200);
    expect(del.json.data).toEqual({ id: t.id, object: "timer", deleted: true });
    for (const path of ["", "/status", "/activity"]) {
      expectError(await s.call("GET", `/api/v1/timers/${t.id}${path}`, { key }), 404, "not_found");
    }
    expect((await s.call("GET", "/api/v1/timers", { key })).json.data).toEqual([]);
    expectError(
      await s.call("DELETE", `/api/v1/timers/${t.id}`, {
        key,
        headers: { "if-match": t.revision },
      }),
      404,
      "not_found",
    );
  });
});

describe("control actions", () => {
  it("publish: production only (sandbox 403 forbidden saying why); sets published_at", async () => {
    const sandbox = await s.key("sandbox");
    const st = await create(sandbox);
    const refused = expectError(
      await act(sandbox, st.id, "publish", st.revision),
      403,
      "forbidden",
    );
    expect(refused.message).toMatch(/sandbox key cannot publish/);
    const prod = await s.key("production");
    const t = await create(prod);
    expectError(await act(prod, t.id, "publish", null), 400, "missing_field");
    s.setNow(Date.UTC(2029, 5, 1));
    const res = await act(prod, t.id, "publish", t.revision);
    s.setNow(null);
    expect(res.status, res.text).toBe(200);
    expect(res.json.data).toMatchObject({
      status: "published",
      published_at: "2029-06-01T00:00:00.000Z",
    });
    const again = await act(prod, t.id, "publish", res.json.data.revision);
    expect(expectError(again, 400, "validation_error").details).toMatchObject({
      reason: "invalid_state",
      status: "published",
    });
  });

  it("archive leaves the list unless status=archived asks; restore brings it back as a draft", async () => {
    const key = await s.key("production");
    const t = await create(key);
    const archived = await act(key, t.id, "archive", t.revision);
    expect(archived.json.data.status).toBe("archived");
    expect((await s.call("GET", "/api/v1/timers", { key })).json.data).toEqual([]);
    const listed = await s.call("GET", "/api/v1/timers?status=archived", { key });
    expect(listed.json.data.map((x: { id: string }) => x.id)).toEqual([t.id]);
    // Archived timers refuse everything but restore.
    for (const action of ["publish", "pause", "archive"]) {
      expectError(
        await act(key, t.id, action, archived.json.data.revision),
        400,
        "validation_error",
      );
    }
    const restored = await act(key, t.id, "restore", archived.json.data.revision);
    expect(restored.json.data.status).toBe("draft");
    expect((await s.call("GET", "/api/v1/timers", { key })).json.data).toHaveLength(1);
    expectError(
      await act(key, t.id, "restore", restored.json.data.revision),
      400,
      "validation_error",
    );
  });

  it("pause freezes the status; resume continues where it stopped (the deadline moves)", async () => {
    const key = await s.key("production");
    const t0 = Date.UTC(2029, 0, 1);
    s.setNow(t0);
    const t = await create(key, fixedTimer({ deadline_at: "2029-01-01T01:00:00Z" }));
    const paused = await act(key, t.id, "pause", t.revision);
    expect(paused.status, paused.text).toBe(200);
    s.setNow(t0 + 600_000); // ten minutes later
    let st = (await s.call("GET", `/api/v1/timers/${t.id}/status`, { key })).json.data;
    expect(st).toMatchObject({ state: "paused", ended: false });
    expect(st.remaining.total_seconds).toBe(3600);
    expectError(await act(key, t.id, "pause", paused.json.data.revision), 400, "validation_error");
    const resumed = await act(key, t.id, "resume", paused.json.data.revision);
    expect(resumed.status).toBe(200);
    s.setNow(t0 + 660_000);
    st = (await s.call("GET", `/api/v1/timers/${t.id}/status`, { key })).json.data;
    expect(st.state).toBe("running");
    expect(st.remaining.total_seconds).toBe(3540);
    expectError(
      await act(key, t.id, "resume", resumed.json.data.revision),
      400,
      "validation_error",
    );
    s.setNow(null);
  });

  it("extend adds seconds (validated); reset restarts a duration timer's own clock", async () => {
    const key = await s.key("production");
    const t0 = Date.UTC(2029, 2, 1);
    s.setNow(t0);
    const d = await create(key, { name: "Evergreen", type: "duration", duration_seconds: 600 });
    const pub = await act(key, d.id, "publish", d.revision);
    expectError(await act(key, d.id, "extend", pub.json.data.revision, {}), 400, "missing_field");
    for (const seconds of [0, -5, 1.5, "60"]) {
      expectError(
        await act(key, d.id, "extend", pub.json.data.revision, { seconds }),
        400,
        "validation_error",
      );
    }
    const ext = await act(key, d.id, "extend", pub.json.data.revision, { seconds: 300 });
    expect(ext.status, ext.text).toBe(200);
    s.setNow(t0 + 800_000);
    let st = (await s.call("GET", `/api/v1/timers/${d.id}/status`, { key })).json.data;
    expect(st.remaining.total_seconds).toBe(100);
    const reset = await act(key, d.id, "reset", ext.json.data.revision);
    expect(reset.status).toBe(200);
    st = (await s.call("GET", `/api/v1/timers/${d.id}/status`, { key })).json.data;
    expect(st.remaining.total_seconds).toBe(600);
    // reset is for duration timers only; pause is not for recurring timers.
    const f = await create(key);
    expectError(await act(key, f.id, "reset", f.revision), 400, "validation_error");
    s.setNow(null);
  });

  it("the activity log records every change newest first: who, what, when, request id", async () => {
    const key = await s.key("production");
    const t = await create(key);
    const patched = await s.call("PATCH", `/api/v1/timers/${t.id}`, {
      key,
      body: { name: "Renamed" },
      headers: { "if-match": t.revision },
    });
    const published = await act(key, t.id, "publish", patched.json.data.revision);
    const res = await s.call("GET", `/api/v1/timers/${t.id}/activity`, { key });
    expect(res.status).toBe(200);
    const entries = res.json.data;
    expect(entries.map((e: { action: string }) => e.action)).toEqual([
      "published",
      "updated",
      "created",
    ]);
    expect(entries[1]).toMatchObject({
      object: "timer_activity",
      timer_id: t.id,
      actor: { key_id: key.id, key_prefix: key.prefix },
      request_id: patched.headers.get("x-request-id"),
      changes: { name: { before: "Launch", after: "Renamed" } },
    });
    expect(entries[0].changes.status).toEqual({ before: "draft", after: "published" });
    expect(entries[0].request_id).toBe(published.headers.get("x-request-id"));
    expect(JSON.stringify(entries)).not.toContain(key.secret);
    // Paged like every list.
    const first = await s.call("GET", `/api/v1/timers/${t.id}/activity?limit=2`, { key });
    expect(first.json.data).toHaveLength(2);
    const rest = await s.call(
      "GET",
      `/api/v1/timers/${t.id}/activity?limit=2&cursor=${encodeURIComponent(first.json.page.next_cursor)}`,
      { key },
    );
    expect(rest.json.data.map((e: { action: string }) => e.action)).toEqual(["created"]);
    expect(rest.json.page).toEqual({ has_more: false, next_cursor: null });
  });

  it("with the allowance spent, updates, deletes and control actions keep working", async () => {
    const key = await s.key("production");
    const timers = [await create(key), await create(key), await create(key)];
    expectError(
      await s.call("POST", "/api/v1/timers", {
        key,
        body: fixedTimer(),
        headers: { "idempotency-key": newKey() },
      }),
      429,
      "quota_exhausted",
    );
    const [a, b, c] = timers as [(typeof timers)[0], (typeof timers)[0], (typeof timers)[0]];
    const patched = await s.call("PATCH", `/api/v1/timers/${a.id}`, {
      key,
      body: { name: "Still editable" },
      headers: { "if-match": a.revision },
    });
    expect(patched.status).toBe(200);
    expect((await act(key, a.id, "publish", patched.json.data.revision)).status).toBe(200);
    expect((await act(key, b.id, "extend", b.revision, { seconds: 60 })).status).toBe(200);
    const del = await s.call("DELETE", `/api/v1/timers/${c.id}`, {
      key,
      headers: { "if-match": c.revision },
    });
    expect(del.status).toBe(200);
    expectError(
      await s.call("POST", `/api/v1/timers/${a.id}/duplicate`, { key }),
      429,
      "quota_exhausted",
    );
  });
});
