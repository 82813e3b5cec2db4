import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { LOOK_STYLES, type LookStyle } from "@tminus/core";
import type { Browser, Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, launchChromium } from "./_chromium";
import { createTimer, startTestServer, type TestServer } from "./_harness";

// Issue 39: every look.style drawn in Chromium on the hosted page (/t/{id}) and in the embed
// (an iframe the embed.js snippet puts on a shop page of another origin), light and dark, at
// 390 and 1280 px. The GIF and PNG are tested elsewhere; here the page's CSS must draw the
// style's shape, show the status route's time, never scroll sideways, and move the rings and
// bars every second (the script sets --p per unit). Under CI=true a missing Chromium fails
// (./_chromium). With TMINUS_SCREENSHOTS=<dir>, each is saved as
// <dir>/pages/{style,embed-style}-<style>[-dark]-<width>.png.
const SHOTS = process.env.TMINUS_SCREENSHOTS ? join(process.env.TMINUS_SCREENSHOTS, "pages") : null;
const WIDTHS = [390, 1280] as const;
const SCHEMES = ["light", "dark"] as const;
const DAY = 86_400_000;

interface Timer {
  id: string;
  urls: { page: string; embed: string; embed_script: string; gif: string };
}

/** What one countdown shows, read in its own document (the page, or the embed's frame). */
interface Drawn {
  classes: string;
  total: number;
  seconds: { text: string; p: string; image: string };
  timer: { bg: string; fg: string; border: string; radius: string };
  digits: { bg: string; image: string; border: string; radius: string; padBottom: string };
  seps: number;
  gaps: number;
  scroll: number;
  inner: number;
  outside: number;
  overlaps: number;
}

let s: TestServer;
let browser: Browser;
let host: Server;
let hostUrl = "";
let key: Awaited<ReturnType<TestServer["key"]>>;
const timers = new Map<LookStyle, Timer>();

/** The shop's page: the embed snippet for one timer, between the shop's own text. */
function shopPage(t: Timer): string {
  return (
    `<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width">` +
    `<style>body{margin:0;padding:16px;font-family:sans-serif;background:#F3F4F6}</style></head>` +
    `<body><h1>Summer sale</h1><div data-tminus-timer="${t.urls.embed}">` +
    `<img src="${t.urls.gif}" alt="countdown"></div><p>After the timer.</p>` +
    `<script async src="${t.urls.embed_script}"></script></body></html>`
  );
}

function read(doc: Page | Frame): Promise<Drawn> {
  return doc.evaluate(() => {
    const timer = document.querySelector<HTMLElement>(".tm-timer")!;
    const all = [...document.querySelectorAll<HTMLElement>(".tm-digits[data-unit]")];
    const secs = all.find((d) => d.dataset.unit === "seconds")!;
    const unit: Record<string, number> = { days: 86_400, hours: 3600, minutes: 60, seconds: 1 };
    const cs = getComputedStyle(secs);
    const ts = getComputedStyle(timer);
    // Nothing of the countdown may be cut off at the viewport's edges.
    const outside = [...document.querySelectorAll(".tm-digits, .tm-sep, .tm-label")].filter(
      (el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && (r.left < -0.5 || r.right > window.innerWidth + 0.5);
      },
    ).length;
    // Nor may a ring, card or box run into the separator beside it (a row too wide for its
    // width shrinks its groups, and the shapes then overlap).
    const row = [...document.querySelectorAll(".tm-row .tm-digits, .tm-row .tm-sep")]
      .map((el) => el.getBoundingClientRect())
      .filter((r) => r.width > 0);
    const overlaps = row.filter((r, i) => i > 0 && r.left < row[i - 1]!.right - 0.5).length;
    return {
      classes: timer.className,
      total: all.reduce((t, d) => t + Number(d.textContent) * unit[d.dataset.unit!]!, 0),
      seconds: {
        text: secs.textContent!,
        p: cs.getPropertyValue("--p").trim(),
        image: cs.backgroundImage,
      },
      timer: {
        bg: ts.backgroundColor,
        fg: ts.color,
        border: ts.borderTopWidth,
        radius: ts.borderTopLeftRadius,
      },
      digits: {
        bg: cs.backgroundColor,
        image: cs.backgroundImage,
        border: cs.borderTopWidth,
        radius: cs.borderTopLeftRadius,
        padBottom: cs.paddingBottom,
      },
      seps: document.querySelectorAll(".tm-sep").length,
      gaps: document.querySelectorAll(".tm-gap").length,
      scroll: document.scrollingElement!.scrollWidth,
      inner: window.innerWidth,
      outside,
      overlaps,
    };
  });
}

/** WCAG relative luminance of a CSS rgb() colour. */
function luminance(css: string): number {
  const [r, g, b] = css
    .match(/\d+(\.\d+)?/g)!
    .slice(0, 3)
    .map((v) => {
      const c = Number(v) / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

const CLEAR = "rgba(0, 0, 0, 0)";

/** The shape each style must draw: what its CSS gives the panel and the digits. */
function expectShape(style: LookStyle, d: Drawn): void {
  expect(d.classes.split(" ")).toContain(`tm-s-${style}`);
  // Only rounded keeps the old panel's border; every other style draws per unit or not at all.
  expect(d.timer.border).toBe(style === "rounded" ? "2px" : "0px");
  // Minimal has no separators, only gaps; the others show the look's ":".
  expect(d.seps).toBe(style === "minimal" ? 0 : 3);
  expect(d.gaps).toBe(style === "minimal" ? 3 : 0);
  const plain = ["rounded", "plain", "minimal"].includes(style);
  if (plain) {
    expect(d.digits.bg).toBe(CLEAR);
    expect(d.digits.image).toBe("none");
    expect(d.digits.border).toBe("0px");
  }
  if (style === "rounded") expect(d.timer.radius).toBe("12px");
  if (style === "boxes") expect(d.digits.bg).not.toBe(CLEAR);
  if (style === "outlined") expect(parseFloat(d.digits.border)).toBeGreaterThanOrEqual(1);
  if (style === "flip") {
    // The split card: a dark-light-dark gradient behind digits in the background's colour.
    expect(d.digits.image).toMatch(/^linear-gradient/);
    expect(d.digits.radius).not.toBe("0px");
  }
  if (style === "circles") {
    expect(d.digits.image).toContain("conic-gradient");
    expect(d.digits.radius).toBe("50%");
  }
  if (style === "bar") {
    expect(d.digits.image).toMatch(/^linear-gradient\(90deg/);
    expect(parseFloat(d.digits.padBottom)).toBeGreaterThan(0);
  }
  if (style === "circles" || style === "bar") {
    // The seconds' share as the page set it: seconds left of 60.
    expect(Number(d.seconds.p)).toBeCloseTo(Number(d.seconds.text) / 60, 2);
  } else expect(d.seconds.p).toBe("");
}

/** The digits agree with the status route, asked right after they were read. */
async function expectStatusTime(t: Timer, d: Drawn): Promise<void> {
  const api = await s.call("GET", `/api/v1/timers/${t.id}/status`, { key });
  expect(api.status).toBe(200);
  expect(Math.abs(d.total - api.json.data.remaining.total_seconds)).toBeLessThanOrEqual(2);
}

/** Light colours by day, dark ones with a dark preference (the look's `dark`). */
function expectScheme(scheme: (typeof SCHEMES)[number], d: Drawn): void {
  if (scheme === "dark") {
    expect(luminance(d.timer.bg)).toBeLessThan(0.05);
    expect(luminance(d.timer.fg)).toBeGreaterThan(0.8);
  } else {
    expect(luminance(d.timer.bg)).toBeGreaterThan(0.8);
    expect(luminance(d.timer.fg)).toBeLessThan(0.05);
  }
}

/** For rings and bars: a second later the seconds' --p, and the gradient drawn from it, moved. */
async function expectMoves(style: LookStyle, doc: Page | Frame, before: Drawn): Promise<void> {
  if (style !== "circles" && style !== "bar") return;
  await new Promise((r) => setTimeout(r, 1100));
  const after = await read(doc);
  expect(after.seconds.text).not.toBe(before.seconds.text);
  expect(after.seconds.p).not.toBe(before.seconds.p);
  expect(Number(after.seconds.p)).toBeCloseTo(Number(after.seconds.text) / 60, 2);
  expect(after.seconds.image).not.toBe(before.seconds.image);
}

async function shot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

const cases = LOOK_STYLES.flatMap((style) => SCHEMES.map((scheme) => [style, scheme] as const));

describe.skipIf(!chromiumAvailable)("look.style on the hosted page and the embed", () => {
  beforeAll(async () => {
    s = await startTestServer(
      { plans: { starter: { requests_per_minute: 100_000, new_timers_per_cycle: 100_000 } } },
      { baseUrlIsServer: true },
    );
    key = await s.key("production");
    // One timer per style, with dark colours the viewer's preference chooses.
    for (const style of LOOK_STYLES)
      timers.set(
        style,
        await createTimer(s, key, {
          type: "fixed",
          name: `Summer sale ${style}`,
          deadline_at: new Date(Date.now() + 3 * DAY + 4_000_000).toISOString(),
          look: { style, dark: {} },
        }),
      );
    host = createServer((req, res) => {
      const id = new URL(req.url ?? "/", "http://host").searchParams.get("timer");
      const t = [...timers.values()].find((x) => x.id === id);
      res.writeHead(t ? 200 : 404, { "content-type": "text/html" });
      res.end(t ? shopPage(t) : "");
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

  it.each(cases)("the hosted page draws %s (%s) at 390 and 1280 px", async (style, scheme) => {
    const t = timers.get(style)!;
    for (const width of WIDTHS) {
      const context = await browser.newContext({
        viewport: { width, height: 480 },
        colorScheme: scheme,
      });
      try {
        const page = await context.newPage();
        await page.goto(t.urls.page);
        await page.evaluate(() => document.fonts.ready);
        const drawn = await read(page);
        await expectStatusTime(t, drawn);
        expectShape(style, drawn);
        expectScheme(scheme, drawn);
        expect(drawn.inner).toBe(width);
        expect(drawn.scroll).toBeLessThanOrEqual(width);
        expect(drawn.outside).toBe(0);
        expect(drawn.overlaps).toBe(0);
        await shot(page, `style-${style}${scheme === "dark" ? "-dark" : ""}-${width}`);
        await expectMoves(style, page, drawn);
      } finally {
        await context.close();
      }
    }
  });

  it.each(cases)(
    "the embed on a shop page draws %s (%s) at 390 and 1280 px",
    async (style, scheme) => {
      const t = timers.get(style)!;
      for (const width of WIDTHS) {
        const context = await browser.newContext({
          viewport: { width, height: 480 },
          colorScheme: scheme,
        });
        try {
          const page = await context.newPage();
          await page.goto(`${hostUrl}?timer=${t.id}`);
          const handle = await page.locator("iframe").elementHandle({ timeout: 10_000 });
          const frame = (await handle!.contentFrame())!;
          await frame.locator("#tm-embed").waitFor();
          await frame.evaluate(() => document.fonts.ready);
          // The frame takes the embed's height (by postMessage) before it is judged or saved.
          await expect
            .poll(() => handle!.evaluate((el) => el.getBoundingClientRect().height))
            .not.toBe(160);
          const drawn = await read(frame);
          await expectStatusTime(t, drawn);
          expectShape(style, drawn);
          expectScheme(scheme, drawn);
          // Neither the embed in its frame nor the shop's page scrolls sideways.
          expect(drawn.scroll).toBeLessThanOrEqual(drawn.inner);
          expect(drawn.outside).toBe(0);
          expect(drawn.overlaps).toBe(0);
          expect(
            await page.evaluate(() => document.scrollingElement!.scrollWidth),
          ).toBeLessThanOrEqual(width);
          await shot(page, `embed-style-${style}${scheme === "dark" ? "-dark" : ""}-${width}`);
          await expectMoves(style, frame, drawn);
        } finally {
          await context.close();
        }
      }
    },
  );
});
