import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sqliteStore } from "@tminus/store/sqlite";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAdmin, createHandler } from "../src/index";
import {
  expectError,
  fixedTimer,
  newKey,
  startTestServer,
  type TestResponse,
  type TestServer,
} from "./_harness";

const DAY = 86_400_000;

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({
    sandbox: { requests_per_minute: 100_000, new_timers_per_cycle: 100_000 },
    plans: { starter: { requests_per_minute: 100_000 } },
    request_log_retention_days: 7,
  });
});
afterAll(() => s.close());

type Key = Awaited<ReturnType<TestServer["key"]>>;
interface Entry {
  object: string;
  id: string;
  request_id: string;
  method: string;
  route: string;
  status: number;
  error_code: string | null;
  key_id: string;
  key_prefix: string;
  duration_ms: number;
  created_at: string;
}

const log = (key: Key, query = "") =>
  s.call("GET", `/api/v1/usage/requests${query ? `?${query}` : ""}`, { key });
const entries = async (key: Key, query = ""): Promise<Entry[]> => {
  const res = await log(key, query);
  expect(res.status, res.text).toBe(200);
  return res.json.data;
};
const requestId = (res: TestResponse) => res.headers.get("x-request-id")!;

// Entries are ordered by time (ms), then id: each request gets its own second on the fake
// clock so the expected order does not depend on how fast the machine is.
let clock = Date.UTC(2026, 10, 22, 12);
const tick = () => {
  clock += 1000;
  s.setNow(clock);
};

describe("GET /usage/requests (spec: the account's own request log)", () => {
  it("lists the key's earlier requests at once, newest first, with every field", async () => {
    const key = await s.key("production");
    s.setNow(Date.UTC(2026, 10, 22, 9, 0, 0));
    const usage = await s.call("GET", "/api/v1/usage", { key });
    s.setNow(Date.UTC(2026, 10, 22, 9, 0, 1));
    const bad = await s.call("GET", "/api/v1/timers/not-a-uuid", { key });
    s.setNow(Date.UTC(2026, 10, 22, 9, 0, 2));
    const created = await s.call("POST", "/api/v1/timers", {
      key,
      body: fixedTimer(),
      headers: { "idempotency-key": newKey() },
    });
    s.setNow(Date.UTC(2026, 10, 22, 9, 0, 3));
    const list = await entries(key);
    s.setNow(null);
    // Written after each response, yet never missing: the route waits for pending writes.
    expect(list.map((e) => e.request_id)).toEqual([
      requestId(created),
      requestId(bad),
      requestId(usage),
    ]);
    expect(list[0]).toMatchObject({
      object: "request_log_entry",
      method: "POST",
      route: "/api/v1/timers",
      status: 201,
      error_code: null,
      key_id: key.id,
      key_prefix: key.prefix,
      created_at: "2026-11-22T09:00:02.000Z",
    });
    expect(list[1]).toMatchObject({
      method: "GET",
      route: "/api/v1/timers/{timer_id}",
      status: 400,
      error_code: "invalid_timer_id",
    });
    expect(list[2]).toMatchObject({ route: "/api/v1/usage", status: 200 });
    for (const e of list) {
      expect(e.duration_ms).toBeGreaterThanOrEqual(0);
      expect(e.id).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(JSON.stringify(list)).not.toContain(key.secret);
  });

  it("shows its own earlier reads too, and only the key's account and environment", async () => {
    const account = `acct-log-${Date.now()}`;
    const sandbox = await s.key("sandbox", account);
    const production = await s.key("production", account);
    const stranger = await s.key("sandbox");
    tick();
    await s.call("GET", "/api/v1/usage", { key: sandbox });
    await s.call("GET", "/api/v1/usage", { key: production });
    await s.call("GET", "/api/v1/usage", { key: stranger });
    tick();
    const first = await log(sandbox);
    tick();
    const second = await entries(sandbox);
    expect(second.map((e) => e.route)).toEqual(["/api/v1/usage/requests", "/api/v1/usage"]);
    expect(second[0]!.request_id).toBe(requestId(first));
    expect(second.every((e) => e.key_id === sandbox.id)).toBe(true);
    expect((await entries(production)).map((e) => e.key_id)).toEqual([production.id]);
  });

  it("does not log requests that failed authentication", async () => {
    const key = await s.key();
    await s.call("GET", "/api/v1/usage", { key: `${key.secret.slice(0, -1)}x` });
    await s.call("GET", "/api/v1/usage");
    expect(await entries(key)).toEqual([]);
  });

  it("filters by status, route, key (id or prefix) and request_id, combined with AND", async () => {
    const account = `acct-filter-${Date.now()}`;
    const a = await s.key("production", account);
    const b = await s.key("production", account);
    tick();
    const r1 = await s.call("GET", "/api/v1/usage", { key: a });
    tick();
    const r2 = await s.call("GET", "/api/v1/timers/nope", { key: a });
    tick();
    const r3 = await s.call("GET", "/api/v1/timers/also-nope", { key: b });
    const ids = async (query: string) => (await entries(a, query)).map((e) => e.request_id);

    expect(await ids("status=400")).toEqual([requestId(r3), requestId(r2)]);
    expect(await ids(`route=${encodeURIComponent("/api/v1/timers/{timer_id}")}`)).toEqual([
      requestId(r3),
      requestId(r2),
    ]);
    expect(await ids(`key=${b.prefix}`)).toEqual([requestId(r3)]);
    expect(await ids(`key=${b.id}`)).toEqual([requestId(r3)]);
    expect(await ids(`request_id=${requestId(r1)}`)).toEqual([requestId(r1)]);
    expect(await ids(`request_id=${requestId(r1).toUpperCase()}`)).toEqual([requestId(r1)]);
    expect(await ids(`status=400&key=${a.prefix}`)).toEqual([requestId(r2)]);
    expect(await ids(`status=200&route=${encodeURIComponent("/api/v1/usage")}`)).toEqual([
      requestId(r1),
    ]);
    expect(await ids("status=404")).toEqual([]);
  });

  it("pages newest first; the cursor is bound to the filters", async () => {
    const key = await s.key("production");
    const made: string[] = [];
    for (let i = 0; i < 7; i++) {
      tick();
      made.push(requestId(await s.call("GET", "/api/v1/usage", { key })));
    }
    const route = encodeURIComponent("/api/v1/usage");
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const q: string = `route=${route}&limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const res = await log(key, q);
      expect(res.json.page.has_more).toBe(res.json.page.next_cursor !== null);
      seen.push(...res.json.data.map((e: Entry) => e.request_id));
      cursor = res.json.page.next_cursor;
      if (cursor) {
        const moved = await log(
          key,
          `route=${route}&status=200&cursor=${encodeURIComponent(cursor)}`,
        );
        expect(expectError(moved, 400, "validation_error").details?.field).toBe("cursor");
      }
    } while (cursor);
    expect(seen).toEqual([...made].reverse());
  });

  it("rejects malformed filters with validation_error naming them", async () => {
    const key = await s.key();
    const field = async (query: string) =>
      expectError(await log(key, query), 400, "validation_error").details?.field;
    for (const status of ["4xx", "99", "600", "200.0", "", "abc"]) {
      expect(await field(`status=${status}`), status).toBe("status");
    }
    expect(await field("route=timers")).toBe("route");
    expect(await field(`route=/${"x".repeat(300)}`)).toBe("route");
    expect(await field("key=somebody")).toBe("key");
    expect(await field("request_id=123")).toBe("request_id");
    expect(await field("method=GET")).toBe("method");
    expect(await field("limit=101")).toBe("limit");
  });

  it("refuses a full key secret in the key filter and says why", async () => {
    const key = await s.key();
    const err = expectError(await log(key, `key=${key.secret}`), 400, "validation_error");
    expect(err.details?.field).toBe("key");
    expect(err.message).toContain("never its secret");
  });

  it("needs the request_log:read scope", async () => {
    const account = `acct-scope-${Date.now()}`;
    const reader = await s.key("production", account, ["timers:read"]);
    const err = expectError(await log(reader), 403, "forbidden");
    expect(err.message).toContain("request_log:read");
    const logReader = await s.key("production", account, ["request_log:read"]);
    const res = await log(logReader);
    expect(res.status).toBe(200);
    // The refused request is in the log too, with its error code.
    expect(res.json.data[0]).toMatchObject({ status: 403, error_code: "forbidden" });
  });

  afterAll(() => s.setNow(null));
});

describe("read-your-writes without a network hop", () => {
  it("a list issued right after a response sees it, even while its write is in flight", async () => {
    // In-process, with request-log writes that take a while to commit (a remote database):
    // the list must wait for the write of the previous request instead of racing it.
    const dir = mkdtempSync(join(tmpdir(), "tminus-log-"));
    const store = sqliteStore({ path: join(dir, "db.sqlite") });
    const slow = new Proxy(store, {
      get(target, name) {
        if (name === "logRequests") {
          return async (batch: Parameters<typeof store.logRequests>[0]) => {
            await new Promise((r) => setTimeout(r, 30));
            return target.logRequests(batch);
          };
        }
        const value = Reflect.get(target, name);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const handler = createHandler({ store: slow });
    try {
      const key = await createAdmin({ store }).issueKey({ account: "ryw", environment: "sandbox" });
      const auth = { authorization: `Bearer ${key.secret}` };
      const base = "http://x/api/v1";
      for (let i = 0; i < 5; i++) {
        const [usage, list] = [
          await handler(new Request(`${base}/usage`, { headers: auth })),
          await handler(new Request(`${base}/usage/requests?limit=1`, { headers: auth })),
        ];
        const latest = (await list.json()).data[0];
        expect(latest?.request_id).toBe(usage.headers.get("x-request-id"));
      }
    } finally {
      await handler.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("retention (request_log_retention_days)", () => {
  it("lists only the window and purges older entries from the store", async () => {
    const t0 = Date.UTC(2030, 0, 1, 12);
    const key = await s.key("production");
    s.setNow(t0);
    const old = await s.call("GET", "/api/v1/usage", { key });
    s.setNow(t0 + 6 * DAY);
    const recent = await s.call("GET", "/api/v1/usage", { key });
    expect((await entries(key)).map((e) => e.request_id)).toContain(requestId(old));

    s.setNow(t0 + 7 * DAY + 1000); // `old` is now just over 7 days old
    const listed = (await entries(key)).map((e) => e.request_id);
    expect(listed).toContain(requestId(recent));
    expect(listed).not.toContain(requestId(old));

    // The purge runs after a response, at most hourly; it removes the row itself.
    const account = await s.store.findAccountByName(key.account);
    const stored = async () =>
      (
        await s.store.listRequestLog!({
          account_id: account!.id,
          environment: "production",
          key_id: key.id,
          limit: 100,
        })
      ).map((e) => e.request_id);
    await vi.waitFor(async () => expect(await stored()).not.toContain(requestId(old)));
    expect(await stored()).toContain(requestId(recent));
    s.setNow(null);
  });
});
