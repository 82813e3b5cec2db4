// Render analytics over real HTTP: public views of every kind counted behind the responses,
// read back through GET /timers/{id}/analytics and GET /analytics, on SQLite and PostgreSQL.
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { purgeExpired, resolveConfig } from "../src/index";
import { expectError, fixedTimer, newKey, startTestServer, type TestServer } from "./_harness";

// The driver of @tminus/store, to read the tables as they are on disk.
const Database = createRequire(new URL("../../store/package.json", import.meta.url))(
  "better-sqlite3",
) as typeof import("better-sqlite3");

const T0 = Date.UTC(2030, 0, 1, 9, 15);
const HOUR = 3_600_000;
const DAY = 86_400_000;

const UA = {
  gmail:
    "Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)",
  apple: "Mozilla/5.0",
  outlook: "Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17126; Pro)",
  yahoo: "YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html",
  browser:
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36",
};

for (const backend of ["sqlite", "postgres"] as const) {
  describe(`render analytics (${backend})`, () => {
    let s: TestServer;
    beforeAll(async () => {
      s = await startTestServer(
        { plans: { starter: { requests_per_minute: 100_000, new_timers_per_cycle: 10 } } },
        { postgres: backend === "postgres" },
      );
    });
    afterAll(() => s.close());

    type Key = Awaited<ReturnType<TestServer["key"]>>;

    async function published(key: Key) {
      const created = await s.call("POST", "/api/v1/timers", {
        key,
        body: fixedTimer(),
        headers: { "idempotency-key": newKey() },
      });
      expect(created.status, created.text).toBe(201);
      const res = await s.call("POST", `/api/v1/timers/${created.json.data.id}/publish`, {
        key,
        headers: { "if-match": created.json.data.revision },
      });
      expect(res.status, res.text).toBe(200);
      return res.json.data as { id: string };
    }

    async function view(id: string, suffix: string, ua: string) {
      const res = await fetch(`${s.url}/t/${id}${suffix}`, { headers: { "user-agent": ua } });
      await res.arrayBuffer();
      expect(res.status).toBe(200);
    }

    async function analytics(key: Key, path: string) {
      const res = await s.call("GET", path, { key });
      expect(res.status, res.text).toBe(200);
      return res.json as {
        data: {
          start: string;
          end: string;
          views: number;
          unique_viewers: number;
          by_kind: Record<string, number>;
          by_client: Record<string, number>;
          by_source: Record<string, number>;
          human_unique_viewers: number;
        }[];
        page: { has_more: boolean; next_cursor: string | null };
      };
    }

    it("counts each view by kind and email client, with unique viewers per hour and day", async () => {
      s.setNow(T0);
      const key = await s.key("production");
      const t = await published(key);
      for (let i = 0; i < 3; i++) await view(t.id, "/countdown.gif", UA.gmail);
      await view(t.id, "/countdown.png?r=alice", UA.gmail);
      await view(t.id, "/countdown.gif", UA.apple);
      await view(t.id, "/countdown.gif", UA.outlook);
      await view(t.id, "/countdown.gif", UA.yahoo);
      await view(t.id, "", UA.browser);
      await view(t.id, "/embed", UA.browser);
      // A view that showed nothing (a bad option) is not counted.
      expect((await fetch(`${s.url}/t/${t.id}/countdown.gif?frames=999`)).status).toBe(400);
      // The next hour: alice again (another client), and one new viewer.
      s.setNow(T0 + HOUR);
      await view(t.id, "/countdown.gif?r=alice", UA.apple);
      await view(t.id, "/countdown.gif", "SomeOtherClient/1.0");

      const hours = await analytics(key, `/api/v1/timers/${t.id}/analytics?granularity=hour`);
      expect(hours.data.map((b) => [b.start, b.end, b.views, b.unique_viewers])).toEqual([
        ["2030-01-01T09:00:00.000Z", "2030-01-01T10:00:00.000Z", 9, 6],
        ["2030-01-01T10:00:00.000Z", "2030-01-01T11:00:00.000Z", 2, 2],
      ]);
      expect(hours.data[0]!.by_kind).toEqual({ gif: 6, png: 1, page: 1, embed: 1 });
      // Pages and embeds are browsers: "other", whatever their user agent.
      expect(hours.data[0]!.by_client).toEqual({
        gmail: 4,
        apple_mail: 1,
        outlook: 1,
        yahoo: 1,
        other: 2,
      });
      // Gmail's and Yahoo's proxies, Apple's prefetch, and the rest: human opens. Without the
      // proxies and the prefetch, Outlook and the browser's page and embed are left.
      expect(hours.data.map((b) => [b.by_source, b.human_unique_viewers])).toEqual([
        [{ human: 3, proxy: 5, prefetch: 1 }, 2],
        [{ human: 1, proxy: 0, prefetch: 1 }, 1],
      ]);
      const days = await analytics(key, `/api/v1/timers/${t.id}/analytics`);
      // alice (by recipient id) and the Gmail proxy (by address and agent) count once a day.
      expect(days.data.map((b) => [b.start, b.views, b.unique_viewers])).toEqual([
        ["2030-01-01T00:00:00.000Z", 11, 7],
      ]);
      expect(days.data.map((b) => [b.by_source, b.human_unique_viewers])).toEqual([
        [{ human: 4, proxy: 5, prefetch: 2 }, 3],
      ]);
    });

    it("totals the account's environment across timers, and keeps other keys out", async () => {
      s.setNow(T0 + 2 * DAY);
      const key = await s.key("production");
      const [a, b] = [await published(key), await published(key)];
      await view(a.id, "/countdown.gif?r=bob", UA.gmail);
      await view(b.id, "/countdown.gif?r=bob", UA.gmail);
      await view(b.id, "/countdown.png?r=carol", UA.gmail);
      const total = await analytics(key, "/api/v1/analytics?granularity=day");
      expect(total.data.map((x) => [x.start, x.views, x.unique_viewers])).toEqual([
        ["2030-01-03T00:00:00.000Z", 3, 2],
      ]);
      const stranger = await s.key("production");
      expectError(
        await s.call("GET", `/api/v1/timers/${a.id}/analytics`, { key: stranger }),
        404,
        "not_found",
      );
      expect((await analytics(stranger, "/api/v1/analytics")).data).toEqual([]);
      // Another environment of the same account sees none of it either.
      const sandbox = await s.key("sandbox", key.account);
      expect((await analytics(sandbox, "/api/v1/analytics")).data).toEqual([]);
    });

    it("pages buckets with a cursor bound to the query", async () => {
      const key = await s.key("production");
      s.setNow(T0 + 4 * DAY);
      const t = await published(key);
      for (let h = 0; h < 3; h++) {
        s.setNow(T0 + 4 * DAY + h * HOUR);
        await view(t.id, "/countdown.gif", UA.gmail);
      }
      const path = `/api/v1/timers/${t.id}/analytics?granularity=hour&limit=2`;
      const first = await analytics(key, path);
      expect(first.data).toHaveLength(2);
      expect(first.page.has_more).toBe(true);
      const second = await analytics(key, `${path}&cursor=${first.page.next_cursor}`);
      expect(second.data.map((b) => b.start)).toEqual(["2030-01-05T11:00:00.000Z"]);
      expect(second.page).toEqual({ has_more: false, next_cursor: null });
      // The cursor of one query is refused by another.
      expectError(
        await s.call(
          "GET",
          `/api/v1/timers/${t.id}/analytics?granularity=day&cursor=${first.page.next_cursor}`,
          { key },
        ),
        400,
        "validation_error",
      );
    });

    it("refuses a bad granularity, range or parameter with validation_error", async () => {
      const key = await s.key("production");
      const t = await published(key);
      for (const [query, field] of [
        ["granularity=week", "granularity"],
        ["from=2030-01-02T00:00:00Z&to=2030-01-01T00:00:00Z", "from"],
        ["from=yesterday", "from"],
        ["to=2030-01-01T00:00:00", "to"],
        ["from=2020-01-01T00:00:00Z&to=2030-01-01T00:00:00Z", "from"],
        ["granularity=hour&granularity=day", "granularity"],
        ["timer=x", "timer"],
      ] as const) {
        const error = expectError(
          await s.call("GET", `/api/v1/timers/${t.id}/analytics?${query}`, { key }),
          400,
          "validation_error",
        );
        expect(error.details?.field, query).toBe(field);
      }
      expectError(
        await s.call("GET", "/api/v1/timers/not-a-uuid/analytics", { key }),
        400,
        "invalid_timer_id",
      );
      const narrow = await s.key("production", undefined, ["webhooks:read"]);
      expectError(await s.call("GET", "/api/v1/analytics", { key: narrow }), 403, "forbidden");
    });
  });
}

describe("render analytics: privacy, switch and retention (sqlite)", () => {
  it("stores day-salted hashes only: no address, user agent or recipient id", async () => {
    const s = await startTestServer({
      plans: { starter: { requests_per_minute: 100_000 } },
    });
    try {
      s.setNow(T0);
      const key = await s.key("production");
      const created = await s.call("POST", "/api/v1/timers", {
        key,
        body: fixedTimer(),
        headers: { "idempotency-key": newKey() },
      });
      const id = created.json.data.id as string;
      await s.call("POST", `/api/v1/timers/${id}/publish`, {
        key,
        headers: { "if-match": created.json.data.revision },
      });
      await (
        await fetch(`${s.url}/t/${id}/countdown.gif?r=secret-recipient`, {
          headers: { "user-agent": "UniqueAgent/42" },
        })
      ).arrayBuffer();
      await (
        await fetch(`${s.url}/t/${id}/countdown.gif`, {
          headers: { "user-agent": "UniqueAgent/43" },
        })
      ).arrayBuffer();
      // Reading flushes the batch.
      const read = await s.call("GET", `/api/v1/timers/${id}/analytics`, { key });
      expect(read.json.data[0].unique_viewers).toBe(2);
      const db = new Database(s.dbPath, { readonly: true });
      try {
        const rows = db.prepare("SELECT * FROM render_viewers").all();
        const dump = JSON.stringify([
          rows,
          db.prepare("SELECT * FROM render_views").all(),
          db.prepare("SELECT * FROM analytics_salts").all(),
        ]);
        expect(rows).toHaveLength(2);
        for (const secret of ["secret-recipient", "UniqueAgent", "127.0.0.1"]) {
          expect(dump).not.toContain(secret);
        }
      } finally {
        db.close();
      }
    } finally {
      await s.close();
    }
  });

  it("analytics.enabled false counts nothing; the purge drops days past retention and old salts", async () => {
    const off = await startTestServer({ analytics: { enabled: false } });
    try {
      const key = await off.key("production");
      const created = await off.call("POST", "/api/v1/timers", {
        key,
        body: fixedTimer(),
        headers: { "idempotency-key": newKey() },
      });
      const id = created.json.data.id as string;
      await off.call("POST", `/api/v1/timers/${id}/publish`, {
        key,
        headers: { "if-match": created.json.data.revision },
      });
      await (await fetch(`${off.url}/t/${id}/countdown.gif`)).arrayBuffer();
      const read = await off.call("GET", `/api/v1/timers/${id}/analytics`, { key });
      expect(read.json.data).toEqual([]);

      const account = (await off.store.findAccountByName(key.account))!;
      const scope = { account_id: account.id, environment: "production" as const, timer_id: id };
      await off.store.recordRenderViews({
        counts: [
          { ...scope, hour: T0 - (T0 % HOUR), kind: "gif", client: "other", views: 1 },
          { ...scope, hour: T0 - (T0 % HOUR) + 3 * DAY, kind: "gif", client: "other", views: 1 },
        ],
        viewers: [],
      });
      const day = T0 - (T0 % DAY);
      await off.store.analyticsSalt(day, () => "old");
      await purgeExpired(
        off.store,
        resolveConfig({ analytics: { retention_days: 2 } }),
        T0 + 4 * DAY,
      );
      const left = await off.store.listRenderAnalytics({
        ...scope,
        granularity: "day",
        from: T0 - DAY,
        to: T0 + 5 * DAY,
        limit: 10,
      });
      expect(left.map((b) => b.start)).toEqual([day + 3 * DAY]);
      expect(await off.store.analyticsSalt(day, () => "new")).toBe("new");
    } finally {
      await off.close();
    }
  });
});
