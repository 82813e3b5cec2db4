import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { LOOK_STYLES, type LookInput, lookSchema } from "@tminus/core";
import fc from "fast-check";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, launchChromium } from "./_chromium";
import { createTimer, startTestServer, type TestServer } from "./_harness";

// `<tminus-countdown>` from embed.js on a shop page of another origin, in Chromium: one request
// for countdown.json, then core's own math in the page. Its digits are compared with the API's
// status route at instants on both sides of New York's 2027 spring-forward (14 March, 07:00Z),
// with the page's clock driven by playwright's clock and the server's by setNow: a weekly
// Monday 09:00 timer counts 3 d 1 h from Friday noon UTC only if the page knows that Monday
// 09:00 is EDT. With TMINUS_SCREENSHOTS=<dir>, the element is saved at 390 and 1280 px.
const SHOTS = process.env.TMINUS_SCREENSHOTS ? join(process.env.TMINUS_SCREENSHOTS, "pages") : null;
const at = (iso: string) => Date.parse(iso);
const LOAD = at("2027-03-12T12:00:00Z"); // Friday, EST; the next Monday 09:00 is EDT

const LONG_LABELS = {
  days: "Wochentage",
  hours: "Stundenzahl",
  minutes: "Minutenzahl",
  seconds: "Sekundenzahl",
};
// Looks a marketer can save, from narrow Latin to wide CJK, emoji and Cyrillic.
const text = (max: number) =>
  fc.string({
    unit: fc.constantFrom("W", "m", "i", "-", " ", ":", "時", "😀", "Щ", "ש"),
    minLength: 1,
    maxLength: max,
  });
const anyLook = fc
  .record(
    {
      font: fc.constantFrom("sans", "mono", "serif"),
      font_size: fc.integer({ min: 8, max: 200 }),
      units: fc.subarray(["days", "hours", "minutes", "seconds"], { minLength: 1 }),
      largest_unit: fc.constantFrom("days", "hours", "minutes"),
      pad: fc.boolean(),
      separator: fc.string({
        unit: fc.constantFrom(":", "—", "時", " ", "|", "W", "Щ", "😀", "%"),
        maxLength: 3,
      }),
      show_labels: fc.boolean(),
      labels: fc.record(
        { days: text(20), hours: text(20), minutes: text(20), seconds: text(20) },
        { requiredKeys: [] },
      ),
      panel: fc.constantFrom("rounded", "plain"),
      // Each style's padding, borders and rings widen the row the fit must shrink (issue 39).
      style: fc.constantFrom(...LOOK_STYLES),
      locale: fc.constantFrom("en", "de", "fi", "ja", "ar"),
    },
    { requiredKeys: [] },
  )
  .filter((l) => lookSchema.safeParse(l).success) as fc.Arbitrary<LookInput>;

interface Timer {
  id: string;
  urls: { gif: string; embed_script: string };
}

let s: TestServer;
let browser: Browser;
let host: Server;
let hostUrl = "";
let weekly: Timer;
let key: Awaited<ReturnType<TestServer["key"]>>;
/** Timers the shop page may show instead of the weekly one: `?timer={id}`. */
const shown = new Map<string, Timer>();

const published = (body: Record<string, unknown>): Promise<Timer> => createTimer(s, key, body);

/** The shop's page: one element wrapping the timer's GIF, and the embed script. */
function shopPage(t: Timer): string {
  return (
    `<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width">` +
    `<style>body{margin:0;padding:16px;font-family:sans-serif;background:#F3F4F6}</style></head>` +
    `<body><h1>Spring sale</h1><p>Ends Monday at 9:00 in New York.</p>` +
    `<tminus-countdown src="${s.url}/t/${t.id}/countdown.json">` +
    `<img src="${t.urls.gif}" alt="Spring sale countdown" width="600" style="max-width:100%;height:auto">` +
    `</tminus-countdown><p>After the timer.</p>` +
    `<script async src="${t.urls.embed_script}"></script></body></html>`
  );
}

async function open(
  options: {
    reducedMotion?: "reduce";
    javaScriptEnabled?: boolean;
    width?: number;
    timer?: Timer;
  } = {},
): Promise<{ page: Page; context: BrowserContext; requests: string[] }> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 390, height: 700 },
    reducedMotion: options.reducedMotion ?? "no-preference",
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  });
  const page = await context.newPage();
  const requests: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  if (options.javaScriptEnabled !== false) {
    // Paused from the start: the page asks for the countdown at the very instant the server's
    // clock shows, so their clocks agree to the latency of one loopback request.
    await page.clock.install({ time: LOAD - 1000 });
    await page.clock.pauseAt(LOAD);
  }
  await page.goto(options.timer ? `${hostUrl}?timer=${options.timer.id}` : hostUrl);
  return { page, context, requests };
}

/** The element's shown units and digits, and the page's clock. */
function read(page: Page) {
  return page.evaluate(() => {
    const root = document.querySelector("tminus-countdown")!.shadowRoot!;
    const digits: Record<string, number> = {};
    for (const unit of root.querySelectorAll<HTMLElement>(".unit"))
      digits[unit.dataset.unit!] = Number(unit.querySelector(".value")!.textContent);
    const live = root.querySelector("[aria-live]")!;
    return {
      digits,
      now: Date.now(),
      live: live.textContent!,
      polite: live.getAttribute("aria-live"),
    };
  });
}

async function waitForElement(page: Page) {
  await page.waitForFunction(() => {
    const root = document.querySelector("tminus-countdown")?.shadowRoot;
    return !!root?.querySelector(".value")?.textContent;
  });
}

/** Counts text changes of the live region and of the seconds (or minutes) digits from now on. */
function countChanges(page: Page, unit: string) {
  return page.evaluate((unit) => {
    const root = document.querySelector("tminus-countdown")!.shadowRoot!;
    const w = window as unknown as { changes: { live: number; digits: number } };
    w.changes = { live: 0, digits: 0 };
    const watch = (node: Node, key: "live" | "digits") =>
      new MutationObserver((records) => {
        w.changes[key] += records.length > 0 ? 1 : 0;
      }).observe(node, { childList: true, characterData: true, subtree: true });
    watch(root.querySelector("[aria-live]")!, "live");
    watch(root.querySelector(`[data-unit="${unit}"] .value`)!, "digits");
  }, unit);
}

const changes = (page: Page) =>
  page.evaluate(() => (window as unknown as { changes: { live: number; digits: number } }).changes);

describe.skipIf(!chromiumAvailable)("<tminus-countdown> in Chromium", () => {
  beforeAll(async () => {
    // The fit property creates a timer a run, shrinking included: no rate limit in its way.
    s = await startTestServer(
      { plans: { starter: { requests_per_minute: 100_000, new_timers_per_cycle: 100_000 } } },
      { baseUrlIsServer: true },
    );
    key = await s.key("production");
    weekly = await published({
      type: "recurring",
      name: "Spring sale",
      timezone: "America/New_York",
      recurrence: {
        rrule: "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0",
        dtstart: "2027-01-04T09:00",
      },
    });
    host = createServer((req, res) => {
      const id = new URL(req.url ?? "/", "http://host").searchParams.get("timer");
      res.writeHead(200, { "content-type": "text/html" });
      res.end(shopPage((id && shown.get(id)) || weekly));
    });
    await new Promise<void>((r) => host.listen(0, "127.0.0.1", r));
    const addr = host.address();
    hostUrl = `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}/`;
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((r) => (host ? host.close(() => r()) : r()));
    await s?.close();
  });

  it("shows the status route's days, hours, minutes and seconds across the DST change, from one request", async () => {
    s.setNow(LOAD);
    const { page, context, requests } = await open();
    try {
      await waitForElement(page);
      const instants = [
        at("2027-03-12T12:00:05Z"), // 3 d 1 h: Monday 09:00 EDT is 13:00Z
        at("2027-03-14T06:30:00Z"), // half an hour before the change
        at("2027-03-14T07:00:30Z"), // just after it
        at("2027-03-15T12:59:58Z"), // two seconds before the occurrence
        at("2027-03-15T13:00:30Z"), // after it: counting to the next Monday, in EDT
        at("2027-03-21T00:00:00Z"),
      ];
      for (const instant of instants) {
        await page.clock.pauseAt(instant);
        await page.clock.runFor(1500);
        const shown = await read(page);
        s.setNow(shown.now);
        const api = await s.call("GET", `/api/v1/timers/${weekly.id}/status`, { key });
        const r = api.json.data.remaining;
        const total = (d: Record<string, number>) =>
          d.days! * 86_400 + d.hours! * 3600 + d.minutes! * 60 + d.seconds!;
        // Within one second of the server at the page's own instant.
        expect(Math.abs(total(shown.digits) - r.total_seconds)).toBeLessThanOrEqual(1);
        expect({ days: shown.digits.days, hours: shown.digits.hours }).toEqual({
          days: r.days,
          hours: r.hours,
        });
      }
      expect(await read(page).then((r) => r.polite)).toBe("polite");
      // One request for the countdown, and none to the service afterwards but the image's.
      const mine = requests.filter((u) => u.startsWith(s.url));
      expect(mine.filter((u) => u.includes("countdown.json"))).toHaveLength(1);
      expect(mine.filter((u) => !/countdown\.(json|gif)|embed\.js/.test(u))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("updates the polite live region once a minute while the digits change every second", async () => {
    s.setNow(LOAD);
    const { page, context } = await open();
    try {
      await waitForElement(page);
      await page.clock.pauseAt(LOAD + 10_000);
      await countChanges(page, "seconds");
      await page.clock.runFor(5 * 60_000);
      const seen = await changes(page);
      expect(seen.digits).toBeGreaterThanOrEqual(295);
      expect(seen.live).toBeGreaterThanOrEqual(4);
      expect(seen.live).toBeLessThanOrEqual(6);
      expect((await read(page)).live).toMatch(/^3 days, 55 minutes$|^3 days, 5\d minutes$/);
    } finally {
      await context.close();
    }
  });

  it("hides the leading zero units the look hides, as they reach zero (issue 37)", async () => {
    s.setNow(LOAD);
    const soon = await published({
      type: "fixed",
      name: "Flash sale",
      deadline_at: new Date(LOAD + 3_630_000).toISOString(), // 0 d 1 h 0 min 30 s
      look: { hide_leading_zero_units: true, separator: "🔥" },
    });
    shown.set(soon.id, soon);
    const { page, context } = await open({ timer: soon });
    const visible = () =>
      page.evaluate(() => {
        const root = document.querySelector("tminus-countdown")!.shadowRoot!;
        return {
          units: [...root.querySelectorAll<HTMLElement>(".unit")]
            .filter((u) => !u.hidden)
            .map((u) => u.dataset.unit),
          separators: [...root.querySelectorAll<HTMLElement>(".sep")].filter((e) => !e.hidden)
            .length,
        };
      });
    try {
      await waitForElement(page);
      await page.clock.runFor(500);
      expect(await visible()).toEqual({ units: ["hours", "minutes", "seconds"], separators: 2 });
      await page.clock.runFor(31_000);
      expect(await visible()).toEqual({ units: ["minutes", "seconds"], separators: 1 });
    } finally {
      await context.close();
    }
  });

  it("with prefers-reduced-motion, shows no seconds and changes once a minute", async () => {
    s.setNow(LOAD);
    const { page, context } = await open({ reducedMotion: "reduce" });
    try {
      await waitForElement(page);
      await page.clock.pauseAt(LOAD + 10_000);
      expect(Object.keys((await read(page)).digits)).toEqual(["days", "hours", "minutes"]);
      await countChanges(page, "minutes");
      await page.clock.runFor(5 * 60_000);
      const seen = await changes(page);
      expect(seen.digits).toBeGreaterThanOrEqual(4);
      expect(seen.digits).toBeLessThanOrEqual(6);
    } finally {
      await context.close();
    }
  });

  it("without JavaScript, shows the timer's GIF and asks for nothing else", async () => {
    const { page, context, requests } = await open({ javaScriptEnabled: false });
    try {
      const img = page.locator("tminus-countdown img");
      await img.waitFor({ state: "visible" });
      const box = await img.boundingBox();
      expect(box!.width).toBeGreaterThan(300);
      expect(box!.height).toBeGreaterThan(20);
      const gif = await page.request.get(weekly.urls.gif);
      expect(gif.headers()["content-type"]).toBe("image/gif");
      expect(requests.some((u) => u.startsWith(weekly.urls.gif))).toBe(true);
      expect(requests.some((u) => u.includes("countdown.json"))).toBe(false);
    } finally {
      await context.close();
    }
  });

  it("replaces the image with the countdown at 390 and 1280 px, inside the viewport", async () => {
    s.setNow(LOAD);
    for (const width of [390, 1280]) {
      const { page, context } = await open({ width });
      try {
        await waitForElement(page);
        const box = await page.locator("tminus-countdown").boundingBox();
        expect(box!.x).toBeGreaterThanOrEqual(0);
        expect(box!.x + box!.width).toBeLessThanOrEqual(width);
        expect(await page.locator("tminus-countdown img").isVisible()).toBe(false);
        if (SHOTS) {
          mkdirSync(SHOTS, { recursive: true });
          await page.screenshot({ path: join(SHOTS, `countdown-element-${width}.png`) });
        }
      } finally {
        await context.close();
      }
    }
  });

  it("fits a 390 px phone whatever the look and the day count", async () => {
    s.setNow(LOAD);
    // The widest looks first: three-character separators, 9,999 days, long labels, 200 px.
    const hard = [
      { separator: "WWW", font_size: 200 },
      { separator: "WWW", font_size: 200, style: "circles" },
      { separator: " : ", font: "mono", font_size: 120, style: "outlined" },
      { separator: "😀", locale: "de", font_size: 96, style: "flip" },
      { separator: "Щ|Щ", font: "serif", font_size: 72, locale: "fi", style: "boxes" },
      { separator: "%", font_size: 64, labels: LONG_LABELS, style: "bar" },
    ].map((look): [LookInput, number] => [look as LookInput, 9_999 * 86_400]);
    // Found by this property: 1,249 days' digits spilled over a "Щ|Щ" from a unit the row had
    // shrunk (flex), while the row's scrollWidth, which the fit measures, fitted.
    hard.push([{ separator: "Щ|Щ" } as LookInput, 107_989_201]);
    await fc.assert(
      fc.asyncProperty(
        anyLook,
        fc.integer({ min: 1, max: 99_999 * 86_400 }),
        async (look, secs) => {
          const deadline = new Date(LOAD + secs * 1000).toISOString();
          const timer = await published({
            type: "fixed",
            name: "Wide",
            deadline_at: deadline,
            look,
          });
          shown.set(timer.id, timer);
          const { page, context } = await open({ width: 390, timer });
          try {
            await waitForElement(page);
            const fit = await page.evaluate(() => {
              const root = document.querySelector("tminus-countdown")!.shadowRoot!;
              const row = root.querySelector(".row")!.getBoundingClientRect();
              // A shrunk unit must not run its ring, card or box into the separator beside it.
              const pieces = [...root.querySelectorAll(".value, .sep")]
                .map((el) => el.getBoundingClientRect())
                .filter((r) => r.width > 0);
              return {
                scroll: document.scrollingElement!.scrollWidth,
                left: Math.floor(row.left),
                right: Math.ceil(row.right),
                overlaps: pieces.filter((r, i) => i > 0 && r.left < pieces[i - 1]!.right - 0.5)
                  .length,
              };
            });
            expect(fit.scroll).toBe(390);
            expect(fit.left).toBeGreaterThanOrEqual(0);
            expect(fit.right).toBeLessThanOrEqual(390);
            expect(fit.overlaps).toBe(0);
          } finally {
            await context.close();
          }
        },
      ),
      { numRuns: 25, examples: hard },
    );
  }, 120_000);

  it("gives the digits their room back in a wider window, and shrinks them again", async () => {
    s.setNow(LOAD);
    const deadline = new Date(LOAD + 9_999 * 86_400_000).toISOString();
    const look = { separator: "WWW", font_size: 200 };
    const timer = await published({ type: "fixed", name: "Wide", deadline_at: deadline, look });
    shown.set(timer.id, timer);
    const { page, context } = await open({ width: 390, timer });
    const rowSize = () =>
      page.evaluate(() => {
        const row = document.querySelector("tminus-countdown")!.shadowRoot!.querySelector(".row")!;
        return parseFloat(getComputedStyle(row).fontSize);
      });
    const shot = (width: number) =>
      SHOTS ? page.screenshot({ path: join(SHOTS, `countdown-element-wide-${width}.png`) }) : null;
    try {
      await waitForElement(page);
      const narrow = await rowSize();
      expect(narrow).toBeLessThan(200);
      await shot(390);
      await page.setViewportSize({ width: 1280, height: 700 });
      await expect.poll(rowSize).toBeGreaterThan(narrow);
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBe(1280);
      await shot(1280);
      await page.setViewportSize({ width: 390, height: 700 });
      await expect.poll(rowSize).toBeCloseTo(narrow, 0);
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBe(390);
    } finally {
      await context.close();
    }
  });
});
