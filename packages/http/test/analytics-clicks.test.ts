// Issue 41 over real HTTP, on SQLite and PostgreSQL: clicks on /t/{id}/go counted behind the
// redirect per source and per the timer's state; campaign labels (`c`, `utm_campaign`) on
// image and link URLs, bounded per timer and day; the account's top timers; and every list
// as text/csv (format=csv or Accept), its header line checked against the OpenAPI document.
import { signPersonalizedParams } from "@tminus/core";
import { CAMPAIGNS_PER_TIMER_DAY } from "@tminus/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, fixedTimer, newKey, startTestServer, type TestServer } from "./_harness";

const T0 = Date.UTC(2030, 3, 1, 9, 15);
const HOUR = 3_600_000;
const DAY = 86_400_000;

const UA = {
  gmail:
    "Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)",
  apple: "Mozilla/5.0",
  outlook: "Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17126; Pro)",
  browser:
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36",
};

for (const backend of ["sqlite", "postgres"] as const) {
  describe(`clicks, campaigns and CSV (${backend})`, () => {
    let s: TestServer;
    beforeAll(async () => {
      s = await startTestServer(
        { plans: { starter: { requests_per_minute: 100_000, new_timers_per_cycle: 20 } } },
        { postgres: backend === "postgres" },
      );
    });
    afterAll(() => s.close());

    type Key = Awaited<ReturnType<TestServer["key"]>>;

    async function published(key: Key, body: Record<string, unknown> = fixedTimer()) {
      const created = await s.call("POST", "/api/v1/timers", {
        key,
        body,
        headers: { "idempotency-key": newKey() },
      });
      expect(created.status, created.text).toBe(201);
      const res = await s.call("POST", `/api/v1/timers/${created.json.data.id}/publish`, {
        key,
        headers: { "if-match": created.json.data.revision },
      });
      expect(res.status, res.text).toBe(200);
      return res.json.data as { id: string; signing_secret?: string };
    }

    async function get(path: string, ua: string, status = 200) {
      const res = await fetch(`${s.url}${path}`, {
        headers: { "user-agent": ua },
        redirect: "manual",
      });
      await res.arrayBuffer();
      expect(res.status, path).toBe(status);
    }

    async function ok(key: Key, path: string, headers: Record<string, string> = {}) {
      const res = await s.call("GET", path, { key, headers });
      expect(res.status, res.text).toBe(200);
      return res;
    }

    it("counts clicks per source and per the timer's state, with the click-through", async () => {
      const key = await s.key("production");
      s.setNow(T0);
      const t = await published(key, {
        name: "Trial",
        type: "personalized",
        personalization: { source: "start", offset_seconds: 600, require_signature: true },
      });
      const start = String(T0 / 1000 + HOUR / 1000);
      const sig = signPersonalizedParams(t.signing_secret!, { start });
      const q = `start=${start}&sig=${sig}`;
      // Before the recipient's start: two readers open, one clicks; Apple's prefetch loads.
      await get(`/t/${t.id}/countdown.gif?${q}&r=ann`, UA.outlook);
      await get(`/t/${t.id}/countdown.gif?${q}&r=bob`, UA.browser);
      await get(`/t/${t.id}/countdown.gif?${q}&r=cat`, UA.apple);
      await get(`/t/${t.id}/go?${q}&r=ann`, UA.browser, 302);
      // Running: a click by a reader, one by a link scanner's bare agent.
      s.setNow(T0 + HOUR + 60_000);
      await get(`/t/${t.id}/go?${q}&r=bob`, UA.browser, 302);
      await get(`/t/${t.id}/go?${q}`, UA.apple, 302);
      // Ended: a late click. A test send's click (an unfilled merge tag) counts nothing.
      s.setNow(T0 + HOUR + 700_000);
      await get(`/t/${t.id}/go?${q}&r=ann`, UA.browser, 302);
      await get(`/t/${t.id}/go?${q}&r=*|UNIQID|*`, UA.browser, 302);

      const hours = await ok(key, `/api/v1/timers/${t.id}/analytics?granularity=hour`);
      expect(
        hours.json.data.map((b: Record<string, unknown>) => [
          b.start,
          b.views,
          b.clicks,
          b.clicks_by_state,
          b.clicks_by_source,
          b.human_unique_viewers,
          b.click_through,
        ]),
      ).toEqual([
        [
          "2030-04-01T09:00:00.000Z",
          3,
          1,
          { before: 1, running: 0, ended: 0 },
          { human: 1, proxy: 0, prefetch: 0 },
          2,
          0.5,
        ],
        // An hour with clicks and no view: no human viewer, no click-through.
        [
          "2030-04-01T10:00:00.000Z",
          0,
          3,
          { before: 0, running: 2, ended: 1 },
          { human: 2, proxy: 0, prefetch: 1 },
          0,
          null,
        ],
      ]);
      const day = await ok(key, `/api/v1/timers/${t.id}/analytics`);
      expect(day.json.data).toHaveLength(1);
      expect(day.json.data[0]).toMatchObject({
        views: 3,
        clicks: 4,
        clicks_by_source: { human: 3, proxy: 0, prefetch: 1 },
        click_through: 1.5,
      });
      // The account's analytics sum the same clicks.
      const account = await ok(key, "/api/v1/analytics");
      expect(account.json.data[0]).toMatchObject({ clicks: 4, views: 3 });
      // The other environment sees none of it.
      const sandbox = await ok(await s.key("sandbox", key.account), "/api/v1/analytics");
      expect(sandbox.json.data).toEqual([]);
    }, 120_000);

    it("breaks views and clicks down per campaign label, bounded per timer and day", async () => {
      const key = await s.key("production");
      s.setNow(T0 + 2 * DAY);
      // Running all along: its clicks are `running` ones.
      const a = await published(key, fixedTimer({ deadline_at: "2031-01-01T00:00:00Z" }));
      const b = await published(
        key,
        fixedTimer({ name: "Other", deadline_at: "2031-01-01T00:00:00Z" }),
      );
      await get(`/t/${a.id}/countdown.gif?utm_source=esp&utm_campaign=spring-sale`, UA.outlook);
      await get(`/t/${a.id}/countdown.gif?utm_campaign=spring-sale&r=x`, UA.gmail);
      // The explicit label wins over utm_campaign; it is trimmed.
      await get(`/t/${a.id}/countdown.png?c=%20resend%20&utm_campaign=spring-sale`, UA.outlook);
      await get(`/t/${a.id}/go?utm_campaign=spring-sale`, UA.browser, 302);
      await get(`/t/${a.id}/go?c=resend`, UA.browser, 302);
      await get(`/t/${a.id}/go?c=resend`, UA.apple, 302);
      // Unlabelled: in the timer's analytics, in no campaign.
      await get(`/t/${a.id}/countdown.gif`, UA.outlook);
      await get(`/t/${b.id}/countdown.gif?c=spring-sale`, UA.outlook);
      // A label someone wrote as a spreadsheet formula, and an over-long one, cut to 64.
      await get(`/t/${b.id}/countdown.gif?c=${encodeURIComponent("=HYPERLINK(1)")}`, UA.outlook);
      await get(`/t/${b.id}/countdown.gif?c=${"x".repeat(80)}`, UA.outlook);

      const one = await ok(key, `/api/v1/timers/${a.id}/analytics/campaigns`);
      expect(
        one.json.data.map((c: Record<string, unknown>) => [
          c.campaign,
          c.views,
          c.by_source,
          c.clicks,
          c.clicks_by_source,
        ]),
      ).toEqual([
        [
          "spring-sale",
          2,
          { human: 1, proxy: 1, prefetch: 0 },
          1,
          { human: 1, proxy: 0, prefetch: 0 },
        ],
        ["resend", 1, { human: 1, proxy: 0, prefetch: 0 }, 2, { human: 1, proxy: 0, prefetch: 1 }],
      ]);
      expect(one.json.data[0]).toMatchObject({
        object: "analytics_campaign",
        from: "2030-03-04T00:00:00.000Z",
        to: "2030-04-04T00:00:00.000Z",
      });
      const all = await ok(key, "/api/v1/analytics/campaigns?limit=2");
      expect(all.json.data.map((c: Record<string, unknown>) => [c.campaign, c.views])).toEqual([
        ["spring-sale", 3],
        ["resend", 1],
      ]);
      const labels = await ok(key, "/api/v1/analytics/campaigns");
      expect(labels.json.data.map((c: { campaign: string }) => c.campaign)).toContain(
        "x".repeat(64),
      );

      // The account's top timers, with their names.
      const top = await ok(key, "/api/v1/analytics/timers?limit=1");
      expect(top.json.data).toEqual([
        expect.objectContaining({ object: "analytics_timer", timer_id: a.id, views: 4, clicks: 3 }),
      ]);

      // CSV: the same rows, by format=csv or by Accept; a formula is shown as text.
      const csv = await ok(key, "/api/v1/analytics/campaigns?format=csv");
      expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8; header=present");
      expect(csv.headers.get("content-disposition")).toMatch(
        /^attachment; filename="tminus-campaigns-production\.csv"$/,
      );
      const lines = csv.text.split("\r\n");
      expect(lines[0]).toBe(
        "campaign,from,to,views,views_human,views_proxy,views_prefetch,clicks,clicks_human,clicks_proxy,clicks_prefetch",
      );
      expect(lines[1]).toBe(
        "spring-sale,2030-03-04T00:00:00.000Z,2030-04-04T00:00:00.000Z,3,2,1,0,1,1,0,0",
      );
      expect(lines).toContain(
        "'=HYPERLINK(1),2030-03-04T00:00:00.000Z,2030-04-04T00:00:00.000Z,1,1,0,0,0,0,0,0",
      );
      expect(lines.at(-1)).toBe("");
      const accepted = await ok(key, `/api/v1/timers/${a.id}/analytics?granularity=hour`, {
        accept: "text/csv, application/json;q=0.5",
      });
      const rows = accepted.text.trim().split("\r\n");
      expect(rows[0]!.split(",")).toEqual([
        "start",
        "end",
        "views",
        "unique_viewers",
        "human_unique_viewers",
        "views_human",
        "views_proxy",
        "views_prefetch",
        "views_gif",
        "views_png",
        "views_page",
        "views_embed",
        "views_gmail",
        "views_apple_mail",
        "views_outlook",
        "views_yahoo",
        "views_other",
        "clicks",
        "clicks_human",
        "clicks_proxy",
        "clicks_prefetch",
        "clicks_before",
        "clicks_running",
        "clicks_ended",
        "click_through",
      ]);
      expect(rows.slice(1)).toEqual([
        "2030-04-03T09:00:00.000Z,2030-04-03T10:00:00.000Z,4,2,1,3,1,0,3,1,0,0,1,0,3,0,0,3,2,0,1,0,3,0,2",
      ]);
      // JSON first in Accept, or format=json, wins over text/csv.
      const json = await ok(key, `/api/v1/timers/${a.id}/analytics?format=json`, {
        accept: "text/csv",
      });
      expect(json.json.data).toHaveLength(1);
      const timers = await ok(key, "/api/v1/analytics/timers?format=csv");
      expect(timers.text.split("\r\n")[0]).toBe(
        "timer_id,name,from,to,views,views_human,views_proxy,views_prefetch,clicks,clicks_human,clicks_proxy,clicks_prefetch",
      );
      expect(timers.text.split("\r\n")).toHaveLength(4);
    }, 120_000);

    it("files a timer's labels past its first ones of the day under other", async () => {
      const key = await s.key("production");
      s.setNow(T0 + 5 * DAY);
      const t = await published(key);
      for (let i = 0; i < CAMPAIGNS_PER_TIMER_DAY + 3; i++) {
        await get(`/t/${t.id}/countdown.gif?c=send-${i}`, UA.outlook);
      }
      // A known label keeps its own row.
      await get(`/t/${t.id}/countdown.gif?c=send-0`, UA.outlook);
      const res = await ok(key, `/api/v1/timers/${t.id}/analytics/campaigns?limit=100`);
      const labels = res.json.data as { campaign: string; views: number }[];
      expect(labels).toHaveLength(CAMPAIGNS_PER_TIMER_DAY + 1);
      expect(labels.reduce((n, c) => n + c.views, 0)).toBe(CAMPAIGNS_PER_TIMER_DAY + 4);
      expect(labels.find((c) => c.campaign === "other")?.views).toBe(3);
      expect(labels.find((c) => c.campaign === "send-0")?.views).toBe(2);
    }, 120_000);

    it("refuses a bad format, limit or range with the error envelope", async () => {
      const key = await s.key("production");
      const t = await published(key);
      expectError(
        await s.call("GET", `/api/v1/timers/${t.id}/analytics?format=xml`, { key }),
        400,
        "validation_error",
      );
      expectError(
        await s.call("GET", "/api/v1/analytics/campaigns?format=pdf", { key }),
        400,
        "validation_error",
      );
      expectError(
        await s.call("GET", "/api/v1/analytics/timers?limit=101", { key }),
        400,
        "validation_error",
      );
      expectError(
        await s.call(
          "GET",
          "/api/v1/analytics/campaigns?from=2030-01-02T00:00:00Z&to=2030-01-01T00:00:00Z",
          { key },
        ),
        400,
        "validation_error",
      );
      expectError(
        await s.call(
          "GET",
          "/api/v1/timers/00000000-0000-4000-8000-000000000000/analytics/campaigns",
          {
            key,
          },
        ),
        404,
        "not_found",
      );
      // Another account's timer is not found either.
      const stranger = await s.key("production");
      expectError(
        await s.call("GET", `/api/v1/timers/${t.id}/analytics/campaigns?format=csv`, {
          key: stranger,
        }),
        404,
        "not_found",
      );
    }, 120_000);
  });
}
