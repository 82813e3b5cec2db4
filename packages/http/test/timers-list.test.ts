import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, fixedTimer, newKey, startTestServer, type TestServer } from "./_harness";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ plans: { starter: { requests_per_minute: 100_000 } } });
});
afterAll(() => s.close());

async function seed(key: Awaited<ReturnType<TestServer["key"]>>, n: number, startMs: number) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    // Two timers share each created_at, so ties on the sort value are exercised.
    s.setNow(startMs + Math.floor(i / 2) * 1000);
    const type = i % 3 === 0 ? "duration" : "fixed";
    const body =
      type === "duration"
        ? { name: `t${i}`, type, duration_seconds: 60 }
        : fixedTimer({ name: `t${i}` });
    const res = await s.call("POST", "/api/v1/timers", {
      key,
      body,
      headers: { "idempotency-key": newKey() },
    });
    ids.push(res.json.data.id);
  }
  s.setNow(null);
  return ids;
}

async function walk(key: Awaited<ReturnType<TestServer["key"]>>, query: string, limit: number) {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const q = `${query}${query ? "&" : ""}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const res = await s.call("GET", `/api/v1/timers?${q}`, { key });
    expect(res.status, res.text).toBe(200);
    seen.push(...res.json.data.map((t: { id: string }) => t.id));
    expect(res.json.page.has_more).toBe(res.json.page.next_cursor !== null);
    cursor = res.json.page.next_cursor;
    if (!cursor) return seen;
  }
  throw new Error("did not finish");
}

describe("GET /timers paging (spec: Paging 1-5, Filters and sort)", () => {
  it("pages through every timer exactly once, in each of the four sorts", async () => {
    const key = await s.key("production");
    const ids = await seed(key, 11, 1_800_000_000_000);
    for (const sort of ["created_at", "-created_at", "updated_at", "-updated_at"]) {
      const seen = await walk(key, `sort=${sort}`, 3);
      expect(new Set(seen).size).toBe(11);
      expect([...seen].sort()).toEqual([...ids].sort());
    }
    const asc = await walk(key, "sort=created_at", 4);
    const desc = await walk(key, "", 4); // default -created_at
    expect(desc).toEqual([...asc].reverse());
  });

  it("a full page can be the last one: next_cursor null, has_more false", async () => {
    const key = await s.key("production");
    await seed(key, 4, 1_800_000_100_000);
    const res = await s.call("GET", "/api/v1/timers?limit=4", { key });
    expect(res.json.data).toHaveLength(4);
    expect(res.json.page).toEqual({ has_more: false, next_cursor: null });
    const def = await s.call("GET", "/api/v1/timers", { key });
    expect(def.json.data).toHaveLength(4); // default limit 25
  });

  it("limit outside 1..100 or not an integer is a validation_error naming limit (not clamped)", async () => {
    const key = await s.key("production");
    for (const limit of ["0", "101", "-1", "2.5", "abc", ""]) {
      const err = expectError(
        await s.call("GET", `/api/v1/timers?limit=${limit}`, { key }),
        400,
        "validation_error",
      );
      expect(err.details?.field).toBe("limit");
    }
    expect((await s.call("GET", "/api/v1/timers?limit=100", { key })).status).toBe(200);
    expect((await s.call("GET", "/api/v1/timers?limit=1", { key })).status).toBe(200);
  });

  it("filters combine with AND; unknown values and parameters are rejected", async () => {
    const key = await s.key("production");
    await seed(key, 6, 1_800_000_200_000);
    const durations = await s.call("GET", "/api/v1/timers?type=duration&status=draft", { key });
    expect(durations.json.data.map((t: { type: string }) => t.type)).toEqual([
      "duration",
      "duration",
    ]);
    const none = await s.call("GET", "/api/v1/timers?type=duration&status=published", { key });
    expect(none.json.data).toEqual([]);
    expect(
      expectError(
        await s.call("GET", "/api/v1/timers?type=sundial", { key }),
        400,
        "validation_error",
      ).details?.field,
    ).toBe("type");
    expect(
      expectError(
        await s.call("GET", "/api/v1/timers?status=gone", { key }),
        400,
        "validation_error",
      ).details?.field,
    ).toBe("status");
    expect(
      expectError(await s.call("GET", "/api/v1/timers?sort=name", { key }), 400, "validation_error")
        .details?.field,
    ).toBe("sort");
    expect(
      expectError(await s.call("GET", "/api/v1/timers?typo=1", { key }), 400, "validation_error")
        .details?.field,
    ).toBe("typo");
  });

  it("name finds timers by part of their name, with paging, and must be 1 to 200 characters", async () => {
    const key = await s.key("production");
    await seed(key, 12, 1_800_000_400_000);
    // t1, t10, t11: three names contain "1", walked two at a time.
    const found = await walk(key, "name=T1", 2);
    expect(found).toHaveLength(3);
    expect((await s.call("GET", "/api/v1/timers?name=zzz", { key })).json.data).toEqual([]);
    expect(
      expectError(await s.call("GET", "/api/v1/timers?name=", { key }), 400, "validation_error")
        .details?.field,
    ).toBe("name");
    expect(
      expectError(
        await s.call("GET", `/api/v1/timers?name=${"x".repeat(201)}`, { key }),
        400,
        "validation_error",
      ).details?.field,
    ).toBe("name");
  });

  it("a cursor is bound to its query: changing sort or a filter is a validation_error on cursor", async () => {
    const key = await s.key("production");
    await seed(key, 5, 1_800_000_300_000);
    const first = await s.call("GET", "/api/v1/timers?limit=2&sort=created_at", { key });
    const cursor = encodeURIComponent(first.json.page.next_cursor);
    for (const q of [
      "sort=-created_at",
      "sort=created_at&type=fixed",
      "sort=created_at&status=draft",
    ]) {
      const err = expectError(
        await s.call("GET", `/api/v1/timers?limit=2&${q}&cursor=${cursor}`, { key }),
        400,
        "validation_error",
      );
      expect(err.details?.field).toBe("cursor");
    }
    // The limit is not part of the query identity: a different page size is fine.
    expect(
      (await s.call("GET", `/api/v1/timers?limit=3&sort=created_at&cursor=${cursor}`, { key }))
        .status,
    ).toBe(200);
  });

  it("a cursor is bound to its account and environment, not its key, and is tamper-evident", async () => {
    const key = await s.key("production", "cursor-owner");
    const otherKey = await s.key("production", "cursor-owner");
    const sandbox = await s.key("sandbox", "cursor-owner");
    const otherAccount = await s.key("production", "cursor-stranger");
    await seed(key, 3, 1_800_000_400_000);
    const first = await s.call("GET", "/api/v1/timers?limit=1", { key });
    const token: string = first.json.page.next_cursor;
    // A key is not a session: during a rotation the new key goes on where the old one was.
    const [byOwner, byOtherKey] = await Promise.all(
      [key, otherKey].map((k) =>
        s.call("GET", `/api/v1/timers?limit=1&cursor=${encodeURIComponent(token)}`, { key: k }),
      ),
    );
    expect(byOtherKey!.status).toBe(200);
    expect(byOtherKey!.json.data).toEqual(byOwner!.json.data);
    expect(byOtherKey!.json.data[0].id).not.toBe(first.json.data[0].id);
    for (const k of [sandbox, otherAccount]) {
      expectError(
        await s.call("GET", `/api/v1/timers?limit=1&cursor=${encodeURIComponent(token)}`, {
          key: k,
        }),
        400,
        "validation_error",
      );
    }
    const [payload, mac] = token.split(".");
    const forged = Buffer.from(
      JSON.stringify([0, "00000000-0000-4000-8000-000000000000", "x"]),
    ).toString("base64url");
    for (const bad of [`${forged}.${mac}`, `${payload}x.${mac}`, "garbage", `${payload}.`]) {
      const err = expectError(
        await s.call("GET", `/api/v1/timers?limit=1&cursor=${encodeURIComponent(bad)}`, { key }),
        400,
        "validation_error",
      );
      expect(err.details?.field).toBe("cursor");
    }
  });

  it("inserts elsewhere in the list do not move the cursor", async () => {
    const key = await s.key("production");
    await seed(key, 6, 1_800_000_500_000);
    const first = await s.call("GET", "/api/v1/timers?limit=3&sort=created_at", { key });
    // New timers sort after everything (later created_at): with ascending sort they arrive on
    // later pages, and nothing already returned comes back.
    await seed(key, 2, 1_800_000_600_000);
    const rest: string[] = [];
    let cursor = first.json.page.next_cursor;
    while (cursor) {
      const res = await s.call(
        "GET",
        `/api/v1/timers?limit=3&sort=created_at&cursor=${encodeURIComponent(cursor)}`,
        { key },
      );
      rest.push(...res.json.data.map((t: { id: string }) => t.id));
      cursor = res.json.page.next_cursor;
    }
    const firstIds = first.json.data.map((t: { id: string }) => t.id);
    expect(rest.filter((id) => firstIds.includes(id))).toEqual([]);
    expect(firstIds.length + rest.length).toBe(8);
  });
});
