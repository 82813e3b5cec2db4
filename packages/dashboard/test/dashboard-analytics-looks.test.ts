import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axe } from "../../http/test/_axe";
import { chromiumAvailable, launchChromium } from "../../http/test/_chromium";
import { LOOK_PRESETS } from "../src/look-presets";
import { fixedTimer, newKey, startTestServer, type TestServer } from "./_harness";

// Issue 23's timer analytics page and built-in looks, in a real Chromium against a real server
// whose clock moves (the harness's setNow): views counted by real public requests on two days
// of three, read back by the page through the API, as a chart drawn in SVG with its table,
// and by email client; a new timer started from a built-in look. Under CI=true a missing
// browser fails the run. Screenshots go to artifacts/dashboard/analytics-*.png and
// looks-*.png at 1280x800 and 390x844, light and dark.
const SHOTS = join(import.meta.dirname, "../../../artifacts/dashboard");
const PASSWORD = "correct horse battery staple";
/** Thursday 26 November 2026, 20:30 in Berlin. */
const THURSDAY_EVENING = Date.parse("2026-11-26T19:30:00Z");
const DAY = 86_400_000;

const UA = {
  gmail:
    "Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)",
  apple: "Mozilla/5.0",
  outlook: "Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17126; Pro)",
};

let s: TestServer;
let browser: Browser;

async function shoot(page: Page, name: string) {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [w, h] of [
      [1280, 800],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(wide, `${name} at ${w} px (${scheme})`).toBeLessThanOrEqual(w);
      await page.screenshot({ path: join(SHOTS, `${name}-${w}-${scheme}.png`) });
      if (w === 390) {
        // The whole page at phone width: the stacked tables below the chart.
        const full = join(SHOTS, `${name}-${w}-${scheme}-full.png`);
        await page.screenshot({ path: full, fullPage: true });
        // The pages with analytics have a views chart, then a clicks chart.
        const figures = page.locator("figure");
        for (let i = 0; i < (await figures.count()); i++) {
          const chart = i === 0 ? "chart" : `chart-${i + 1}`;
          await figures
            .nth(i)
            .screenshot({ path: join(SHOTS, `${name}-${w}-${scheme}-${chart}.png`) });
        }
      }
      expect(await axe(page), `axe on ${name} at ${w} px (${scheme})`).toEqual([]);
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** The account's new owner, signed in through their link in a fresh browser context. */
async function signIn(account: string) {
  const { link } = await s.admin.createUser({
    account,
    email: `owner-${Math.random().toString(36).slice(2, 10)}@example.com`,
    role: "owner",
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(link.url!);
  await page.fill("#password", PASSWORD);
  await page.fill("#confirm", PASSWORD);
  await page.click("button[type=submit]");
  await page.waitForURL(`${s.url}/dashboard/production`);
  return { page, context };
}

describe.skipIf(!chromiumAvailable)(
  "a timer's analytics page and the built-in looks, in headless Chromium",
  () => {
    beforeAll(async () => {
      mkdirSync(SHOTS, { recursive: true });
      s = await startTestServer({}, { baseUrlIsServer: true });
      browser = await launchChromium();
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await s?.close();
    });

    it("charts views and unique viewers per day, with the table and the email clients", async () => {
      s.setNow(THURSDAY_EVENING - 2 * DAY);
      const key = await s.key("production");
      const created = await s.call("POST", "/api/v1/timers", {
        key,
        body: fixedTimer({
          name: "Black Friday",
          timezone: "Europe/Berlin",
          deadline_at: "2026-11-27T22:59:00Z",
        }),
        headers: { "idempotency-key": newKey() },
      });
      expect(created.status, created.text).toBe(201);
      const id = created.json.data.id as string;
      const published = await s.call("POST", `/api/v1/timers/${id}/publish`, {
        key,
        headers: { "if-match": created.json.data.revision },
      });
      expect(published.status, published.text).toBe(200);
      const view = async (ua: string, r?: string) => {
        const res = await fetch(`${s.url}/t/${id}/countdown.gif${r ? `?r=${r}` : ""}`, {
          headers: { "user-agent": ua },
        });
        await res.arrayBuffer();
        expect(res.status).toBe(200);
      };
      // Tuesday: 3 views by 2 viewers (Gmail's proxy twice, Outlook once).
      await view(UA.gmail);
      await view(UA.gmail);
      await view(UA.outlook);
      // Wednesday: nothing. Thursday: 5 views by 4 viewers (alice twice).
      s.setNow(THURSDAY_EVENING);
      await view(UA.apple, "alice");
      await view(UA.apple, "alice");
      await view(UA.apple, "bob");
      await view(UA.gmail, "carol");
      await view(UA.outlook);

      const { page, context } = await signIn(key.account);

      // Linked from the timer's page.
      await page.goto(`${s.url}/dashboard/production/timers/${id}`);
      await page.click("text=Analytics: views per day and email clients");
      await page.waitForURL(`${s.url}/dashboard/production/timers/${id}/analytics`);
      expect(await page.textContent("h1")).toBe("Analytics: Black Friday");

      // The chart: an image with a title, one views bar and one unique-viewers bar per day.
      const svg = page.locator("svg.views-chart");
      expect(await svg.getAttribute("role")).toBe("img");
      expect(await page.textContent("svg.views-chart > title")).toBe(
        "Views and unique viewers per day, last 30 days",
      );
      expect(await svg.locator("rect.views").count()).toBe(30);
      expect(await svg.locator("rect.unique").count()).toBe(30);
      // Thursday is the busiest day: its views bar is the full height, Tuesday's is 3/5 of it.
      const bar = (kind: string, n: number) =>
        svg.locator(`rect.${kind}`).nth(n).getAttribute("height");
      expect(await bar("views", 29)).toBe("100.00");
      expect(await bar("unique", 29)).toBe("80.00");
      expect(await bar("views", 27)).toBe("60.00");
      expect(await bar("views", 28)).toBe("0.00");
      // The grey top of each views bar: proxies and prefetches. Thursday 4 of 5 (Apple's three
      // prefetches and Gmail's proxy), Tuesday 2 of 3 (Gmail's proxy twice).
      expect(await svg.locator("rect.machine").count()).toBe(2);
      expect(await bar("machine", 0)).toBe("40.00");
      expect(await bar("machine", 1)).toBe("80.00");

      // The table: the days with views, newest first, UTC days with their start in Berlin time.
      const rows = await page.$$eval("table[aria-labelledby=per-day] tbody tr", (trs) =>
        trs.map((tr) => [...tr.children].map((c) => c.textContent?.trim())),
      );
      expect(rows).toEqual([
        ["Thu 26 Nov", "Thu 26 Nov 2026, 01:00 CET", "5", "4", "0"],
        ["Tue 24 Nov", "Tue 24 Nov 2026, 01:00 CET", "3", "2", "0"],
      ]);
      expect(await page.textContent(".cards")).toContain("8");

      // Who fetched the images: the readers' own apps (Outlook twice), proxies, prefetches.
      expect(await page.textContent("#c-human + p.n")).toBe("2");
      // A share table's rows: the name (without its hint), the views, the share.
      const shares = (table: string) =>
        page.$$eval(`table[aria-labelledby=${table}] tbody tr`, (trs) =>
          trs.map((tr) => [
            tr.querySelector("th")!.childNodes[0]!.textContent,
            ...[...tr.querySelectorAll("td")].map((c) => c.textContent),
          ]),
        );
      expect(await shares("sources")).toEqual([
        ["Readers' own apps", "2", "25 %"],
        ["Image proxies", "3", "37.5 %"],
        ["Privacy prefetches", "3", "37.5 %"],
      ]);

      // Email clients over the 30 days, with their share.
      expect(await shares("clients")).toEqual([
        ["Gmail", "3", "37.5 %"],
        ["Apple Mail", "3", "37.5 %"],
        ["Outlook", "2", "25 %"],
        ["Yahoo and AOL Mail", "0", "0 %"],
        ["Other", "0", "0 %"],
      ]);
      // Looking at the page counted nothing.
      const api = await s.call("GET", `/api/v1/timers/${id}/analytics`, { key });
      expect(api.json.data.map((b: { views: number }) => b.views)).toEqual([3, 5]);

      await shoot(page, "analytics-timer");
      await context.close();
    }, 300_000);

    it("shows the account at a glance: views and clicks, top timers, clients, campaigns, CSV", async () => {
      s.setNow(THURSDAY_EVENING - DAY);
      const key = await s.key("production");
      const timer = async (name: string) => {
        const created = await s.call("POST", "/api/v1/timers", {
          key,
          body: fixedTimer({
            name,
            timezone: "Europe/Berlin",
            deadline_at: "2026-12-24T22:59:00Z",
          }),
          headers: { "idempotency-key": newKey() },
        });
        expect(created.status, created.text).toBe(201);
        const id = created.json.data.id as string;
        const res = await s.call("POST", `/api/v1/timers/${id}/publish`, {
          key,
          headers: { "if-match": created.json.data.revision },
        });
        expect(res.status, res.text).toBe(200);
        return id;
      };
      const sale = await timer("Winter sale");
      const launch = await timer("Product launch");
      const hit = async (path: string, ua: string, status = 200) => {
        const res = await fetch(`${s.url}${path}`, {
          headers: { "user-agent": ua },
          redirect: "manual",
        });
        await res.arrayBuffer();
        expect(res.status, path).toBe(status);
      };
      // Wednesday: the sale's first send, 3 views and a click.
      await hit(`/t/${sale}/countdown.gif?c=first-send&r=ann`, UA.outlook);
      await hit(`/t/${sale}/countdown.gif?c=first-send&r=bob`, UA.gmail);
      await hit(`/t/${sale}/countdown.gif?c=first-send&r=cat`, UA.apple);
      await hit(`/t/${sale}/go?c=first-send&r=ann`, UA.outlook, 302);
      // Thursday: the reminder (utm_campaign from a link tracker) and the launch.
      s.setNow(THURSDAY_EVENING);
      await hit(`/t/${sale}/countdown.gif?utm_campaign=reminder&r=ann`, UA.outlook);
      await hit(`/t/${sale}/go?utm_campaign=reminder&r=ann`, UA.outlook, 302);
      await hit(`/t/${sale}/go?utm_campaign=reminder&r=dan`, UA.outlook, 302);
      await hit(`/t/${launch}/countdown.gif?r=eve`, UA.gmail);

      const { page, context } = await signIn(key.account);
      await page.click("nav.main >> text=Analytics");
      await page.waitForURL(`${s.url}/dashboard/production/analytics`);
      expect(await page.textContent("h1")).toBe("Analytics");
      expect(await page.getAttribute("nav.main a[aria-current=page]", "href")).toBe(
        "/dashboard/production/analytics",
      );
      expect(await page.textContent("#c-views + p.n")).toBe("5");
      expect(await page.textContent("#c-clicks + p.n")).toBe("3");
      // Readers' clicks (3) per day's human viewers added up (ann Wed; ann Thu): 150 %.
      expect(await page.textContent("#c-clicks ~ p:not(.n)")).toBe("click-through 150 %");
      const svg = page.locator("svg.clicks-chart");
      expect(await svg.locator("rect.clicks").count()).toBe(30);
      expect(await svg.locator("rect.clicks").nth(29).getAttribute("height")).toBe("100.00");
      expect(await svg.locator("rect.clicks").nth(28).getAttribute("height")).toBe("50.00");
      // Every click was a reader's: no grey part (the views' proxies are not the clicks').
      expect(await svg.locator("rect.machine").count()).toBe(0);
      const rows = (table: string) =>
        page.$$eval(`table[aria-labelledby=${table}] tbody tr`, (trs) =>
          trs.map((tr) => [...tr.children].map((c) => c.childNodes[0]?.textContent?.trim() ?? "")),
        );
      expect(await rows("top-timers")).toEqual([
        ["Winter sale", "4", "2", "3"],
        ["Product launch", "1", "0", "0"],
      ]);
      expect(await rows("campaigns")).toEqual([
        ["first-send", "3", "1", "1", "1"],
        ["reminder", "1", "1", "2", "2"],
      ]);
      expect((await rows("clients")).map((r) => r.slice(0, 2))).toEqual([
        ["Gmail", "2"],
        ["Apple Mail", "1"],
        ["Outlook", "2"],
        ["Yahoo and AOL Mail", "0"],
        ["Other", "0"],
      ]);
      // A top timer links to its own page, which has the clicks by state and the campaigns.
      await page.click("table[aria-labelledby=top-timers] >> text=Winter sale");
      await page.waitForURL(`${s.url}/dashboard/production/timers/${sale}/analytics`);
      expect(await page.textContent("#c-clicks + p.n")).toBe("3");
      expect((await rows("states")).map((r) => r.slice(0, 2))).toEqual([
        ["Before it started", "0"],
        ["While it ran", "3"],
        ["After it ended", "0"],
      ]);
      await shoot(page, "analytics-timer-clicks");

      // The downloads: the API's CSV of the 30 days and of the campaigns.
      await page.goto(`${s.url}/dashboard/production/analytics`);
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.click("text=Download days (CSV)"),
      ]);
      expect(download.suggestedFilename()).toBe("tminus-analytics-production-day.csv");
      const text = await (
        await page.request.get(`${s.url}/dashboard/production/analytics.csv`)
      ).text();
      const lines = text.trim().split("\r\n");
      expect(lines[0]).toMatch(/^start,end,views,unique_viewers,/);
      expect(lines.slice(1).map((l) => l.split(",").slice(0, 3))).toEqual([
        ["2026-11-25T00:00:00.000Z", "2026-11-26T00:00:00.000Z", "3"],
        ["2026-11-26T00:00:00.000Z", "2026-11-27T00:00:00.000Z", "2"],
      ]);
      const campaigns = await (
        await page.request.get(`${s.url}/dashboard/production/analytics.csv?what=campaigns`)
      ).text();
      expect(campaigns.split("\r\n")[1]).toMatch(/^first-send,/);
      await shoot(page, "analytics-account");
      await context.close();
    }, 180_000);

    it("starts a new timer from a ready look, each drawn by the renderer", async () => {
      s.setNow(THURSDAY_EVENING);
      const key = await s.key("production");
      const { page, context } = await signIn(key.account);
      await page.goto(`${s.url}/dashboard/production/timers/new`);
      await page.click("text=Start from a look");
      await page.waitForURL(/\/production\/looks$/);
      const looks = page.locator("ul.looks a");
      expect(await looks.count()).toBe(LOOK_PRESETS.length);
      // Every look's picture is a real PNG of the countdown in that look.
      const sources = await page.$$eval("ul.looks img", (imgs) =>
        imgs.map((i) => (i as HTMLImageElement).src),
      );
      for (const src of sources) {
        const res = await page.request.get(src);
        expect(res.status(), src).toBe(200);
        expect(res.headers()["content-type"]).toBe("image/png");
      }
      await page.click("ul.looks a:has-text('Sale red')");
      await page.waitForURL(/\/timers\/new\?look=sale$/);
      expect(await page.textContent(".start-look")).toContain("The look of Sale red");
      expect((await page.inputValue("#background_color")).toLowerCase()).toBe("#7f1d1d");
      expect((await page.inputValue("#text_color")).toLowerCase()).toBe("#ffffff");
      expect((await page.inputValue("#accent_color")).toLowerCase()).toBe("#fca5a5");
      await shoot(page, "looks-builder");
      await page.fill("#name", "Friday sale");
      await page.fill("#deadline_local", "2026-12-04T23:59");
      await page.click("text=Create timer");
      await page.waitForURL(/notice=created$/);
      const listed = await s.call("GET", "/api/v1/timers", { key });
      const look = listed.json.data[0].look;
      expect([look.theme, look.background_color, look.text_color, look.accent_color]).toEqual([
        "dark",
        "#7F1D1D",
        "#FFFFFF",
        "#FCA5A5",
      ]);
      await context.close();
    }, 120_000);

    it("saves a timer's look under a name, starts a new timer from it, and deletes it", async () => {
      s.setNow(THURSDAY_EVENING);
      const key = await s.key("production");
      const created = await s.call("POST", "/api/v1/timers", {
        key,
        body: fixedTimer({
          name: "Brand launch",
          timezone: "Europe/Berlin",
          look: {
            theme: "dark",
            background_color: "#123456",
            text_color: "#FFEEDD",
            font: "serif",
          },
        }),
        headers: { "idempotency-key": newKey() },
      });
      expect(created.status, created.text).toBe(201);
      const id = created.json.data.id as string;
      const { page, context } = await signIn(key.account);
      await page.goto(`${s.url}/dashboard/production/timers/${id}`);
      // A blank name is refused by the server too (the browser's "required" aside).
      await page.$eval("#look_name", (i) => i.removeAttribute("required"));
      await page.click("text=Save look");
      await page.waitForLoadState("load");
      expect(await page.textContent("[role=alert]")).toContain("Save this look as: give it a name");
      // A name over the limit is refused with its length, not cut by the field.
      await page.fill("#look_name", "B".repeat(120));
      expect(await page.inputValue("#look_name")).toBe("B".repeat(120));
      await page.click("text=Save look");
      await page.waitForLoadState("load");
      expect(await page.textContent("[role=alert]")).toContain(
        "the name has 120 characters; at most 100 fit",
      );
      await page.fill("#look_name", "Acme brand");
      await page.click("text=Save look");
      await page.waitForURL(/notice=look-saved$/);
      await shoot(page, "looks-timer-saved");

      // Another account sees nothing of it.
      const other = await s.key("production");
      const stranger = await signIn(other.account);
      await stranger.page.goto(`${s.url}/dashboard/production/looks`);
      expect(await stranger.page.locator("text=Acme brand").count()).toBe(0);
      await stranger.context.close();

      await page.goto(`${s.url}/dashboard/production/looks`);
      const saved = page.locator("ul[aria-labelledby=saved-looks] li");
      expect(await saved.count()).toBe(1);
      await page.click("ul[aria-labelledby=saved-looks] a:has-text('Acme brand')");
      await page.waitForURL(/\/timers\/new\?saved=/);
      expect((await page.inputValue("#background_color")).toLowerCase()).toBe("#123456");
      expect((await page.inputValue("#text_color")).toLowerCase()).toBe("#ffeedd");
      expect(await page.inputValue("#font")).toBe("serif");
      await shoot(page, "looks-builder-saved");
      await page.fill("#name", "Second launch");
      await page.fill("#deadline_local", "2026-12-04T23:59");
      await page.click("text=Create timer");
      await page.waitForURL(/notice=created$/);
      const listed = await s.call("GET", "/api/v1/timers?limit=10", { key });
      const second = listed.json.data.find((t: { name: string }) => t.name === "Second launch");
      expect([second.look.background_color, second.look.text_color, second.look.font]).toEqual([
        expect.stringMatching(/^#123456$/i),
        expect.stringMatching(/^#ffeedd$/i),
        "serif",
      ]);

      // Deleted after the confirmation: gone from the gallery.
      await page.goto(`${s.url}/dashboard/production/looks`);
      page.once("dialog", (d) => d.accept());
      await page.click("ul[aria-labelledby=saved-looks] button:has-text('Delete')");
      await page.waitForURL(/notice=look-deleted$/);
      expect(await page.locator("ul[aria-labelledby=saved-looks]").count()).toBe(0);
      await context.close();
    }, 120_000);
  },
);
