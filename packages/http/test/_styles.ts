// What the issue 39 browser tests check of one drawn countdown, wherever it is drawn: the hosted
// page and the iframe embed (page-styles.browser.test.ts) and `<tminus-countdown>`'s shadow tree
// (countdown-element-styles.browser.test.ts). Each passes its own markup's selectors to `read`.
import { mkdirSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { LOOK_STYLES, type LookStyle } from "@tminus/core";
import type { Browser, Frame, Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { launchChromium } from "./_chromium";
import { createTimer, startTestServer, type TestServer } from "./_harness";

export const WIDTHS = [390, 1280] as const;
export const SCHEMES = ["light", "dark"] as const;
export const DAY = 86_400_000;
/** Every style in both colour schemes: the cases of `it.each`. */
export const STYLE_CASES = LOOK_STYLES.flatMap((style) =>
  SCHEMES.map((scheme) => [style, scheme] as const),
);

/** Where a countdown's pieces are in its markup. */
export interface Selectors {
  /** The custom element whose shadow root holds the countdown, or null for the document. */
  host: string | null;
  /** The box carrying `tm-s-<style>`, the colours and the panel's border. */
  timer: string;
  /** Each unit's digits; the unit is the `data-unit` of the digits or of a parent. */
  digits: string;
  sep: string;
  label: string;
  /** Minimal's spaces between units, or null where none are drawn. */
  gap: string | null;
}

/** What one countdown shows, read in its own document (the page, or the embed's frame). */
export interface Drawn {
  classes: string;
  total: number;
  seconds: { text: string; p: string; image: string };
  timer: { bg: string; fg: string; border: string; radius: string };
  digits: { bg: string; image: string; border: string; radius: string; padBottom: string };
  seps: number;
  gaps: number | null;
  scroll: number;
  inner: number;
  outside: number;
  overlaps: number;
}

/** Reads the countdown at `sel` in `doc`. */
export function read(doc: Page | Frame, sel: Selectors): Promise<Drawn> {
  return doc.evaluate((sel) => {
    const root: ParentNode = sel.host ? document.querySelector(sel.host)!.shadowRoot! : document;
    const timer = root.querySelector<HTMLElement>(sel.timer)!;
    const unitOf = (d: Element) => (d.closest("[data-unit]") as HTMLElement).dataset.unit!;
    const all = [...root.querySelectorAll<HTMLElement>(sel.digits)];
    const secs = all.find((d) => unitOf(d) === "seconds")!;
    const unit: Record<string, number> = { days: 86_400, hours: 3600, minutes: 60, seconds: 1 };
    const cs = getComputedStyle(secs);
    const ts = getComputedStyle(timer);
    const pieces = (list: string[]) =>
      [...root.querySelectorAll(list.join(","))]
        .map((el) => el.getBoundingClientRect())
        .filter((r) => r.width > 0);
    // Nothing of the countdown may be cut off at the viewport's edges.
    const outside = pieces([sel.digits, sel.sep, sel.label]).filter(
      (r) => r.left < -0.5 || r.right > window.innerWidth + 0.5,
    ).length;
    // Nor may a ring, card or box run into the separator beside it (a row too wide for its
    // width shrinks its groups, and the shapes then overlap).
    const row = pieces([sel.digits, sel.sep]);
    const overlaps = row.filter((r, i) => i > 0 && r.left < row[i - 1]!.right - 0.5).length;
    return {
      classes: timer.className,
      total: all.reduce((t, d) => t + Number(d.textContent) * unit[unitOf(d)]!, 0),
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
      seps: root.querySelectorAll(sel.sep).length,
      gaps: sel.gap === null ? null : root.querySelectorAll(sel.gap).length,
      scroll: document.scrollingElement!.scrollWidth,
      inner: window.innerWidth,
      outside,
      overlaps,
    };
  }, sel);
}

/** WCAG relative luminance of a CSS rgb() colour. */
export function luminance(css: string): number {
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
export function expectShape(style: LookStyle, d: Drawn): void {
  expect(d.classes.split(" ")).toContain(`tm-s-${style}`);
  // Only rounded keeps the old panel's border; every other style draws per unit or not at all.
  expect(d.timer.border).toBe(style === "rounded" ? "2px" : "0px");
  // Minimal has no separators, only gaps; the others show the look's ":".
  expect(d.seps).toBe(style === "minimal" ? 0 : 3);
  if (d.gaps !== null) expect(d.gaps).toBe(style === "minimal" ? 3 : 0);
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
    // The seconds' share as the script set it: seconds left of 60.
    expect(Number(d.seconds.p)).toBeCloseTo(Number(d.seconds.text) / 60, 2);
  } else expect(d.seconds.p).toBe("");
}

/** Light colours by day, dark ones with a dark preference (the look's `dark`). */
export function expectScheme(scheme: (typeof SCHEMES)[number], d: Drawn): void {
  if (scheme === "dark") {
    expect(luminance(d.timer.bg)).toBeLessThan(0.05);
    expect(luminance(d.timer.fg)).toBeGreaterThan(0.8);
  } else {
    expect(luminance(d.timer.bg)).toBeGreaterThan(0.8);
    expect(luminance(d.timer.fg)).toBeLessThan(0.05);
  }
}

/** No sideways scroll, nothing cut off at the edges, no shape over its separator. */
export function expectFits(d: Drawn): void {
  expect(d.scroll).toBeLessThanOrEqual(d.inner);
  expect(d.outside).toBe(0);
  expect(d.overlaps).toBe(0);
}

/** For rings and bars: a second later the seconds' --p, and the gradient drawn from it, moved. */
export async function expectMoves(
  style: LookStyle,
  doc: Page | Frame,
  sel: Selectors,
  before: Drawn,
): Promise<void> {
  if (style !== "circles" && style !== "bar") return;
  await new Promise((r) => setTimeout(r, 1100));
  const after = await read(doc, sel);
  expect(after.seconds.text).not.toBe(before.seconds.text);
  expect(after.seconds.p).not.toBe(before.seconds.p);
  expect(Number(after.seconds.p)).toBeCloseTo(Number(after.seconds.text) / 60, 2);
  expect(after.seconds.image).not.toBe(before.seconds.image);
}

/** Saves the page as <TMINUS_SCREENSHOTS>/pages/<name>.png when that is set. */
export async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.TMINUS_SCREENSHOTS;
  if (!dir) return;
  mkdirSync(join(dir, "pages"), { recursive: true });
  await page.screenshot({ path: join(dir, "pages", `${name}.png`) });
}

/** A timer of the style tests. */
export interface StyleTimer {
  id: string;
  urls: { page: string; embed: string; embed_script: string; gif: string };
}

/** The service with one timer per style, and a shop's server of another origin. */
export interface StyleServer {
  server: TestServer;
  timers: Map<LookStyle, StyleTimer>;
  /** The shop's page for a timer: `${hostUrl}?timer={id}`. */
  hostUrl: string;
  /** The digits agree with the status route, asked right after they were read. */
  expectStatusTime(t: StyleTimer, d: Drawn): Promise<void>;
  close(): Promise<void>;
}

/** Starts the service and the shop, whose page for a timer is `shopPage`'s. */
export async function startStyleServer(
  shopPage: (t: StyleTimer, server: TestServer) => string,
): Promise<StyleServer> {
  const server = await startTestServer(
    { plans: { starter: { requests_per_minute: 100_000, new_timers_per_cycle: 100_000 } } },
    { baseUrlIsServer: true },
  );
  const key = await server.key("production");
  const timers = new Map<LookStyle, StyleTimer>();
  // One timer per style, with dark colours the viewer's preference chooses.
  for (const style of LOOK_STYLES)
    timers.set(
      style,
      await createTimer(server, key, {
        type: "fixed",
        name: `Summer sale ${style}`,
        deadline_at: new Date(Date.now() + 3 * DAY + 4_000_000).toISOString(),
        look: { style, dark: {} },
      }),
    );
  const host = createServer((req, res) => {
    const id = new URL(req.url ?? "/", "http://host").searchParams.get("timer");
    const t = [...timers.values()].find((x) => x.id === id);
    res.writeHead(t ? 200 : 404, { "content-type": "text/html" });
    res.end(t ? shopPage(t, server) : "");
  });
  await new Promise<void>((r) => host.listen(0, "127.0.0.1", r));
  const addr = host.address();
  return {
    server,
    timers,
    hostUrl: `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}/`,
    async expectStatusTime(t, d) {
      const api = await server.call("GET", `/api/v1/timers/${t.id}/status`, { key });
      expect(api.status).toBe(200);
      expect(Math.abs(d.total - api.json.data.remaining.total_seconds)).toBeLessThanOrEqual(2);
    },
    async close() {
      await new Promise<void>((r) => host.close(() => r()));
      await server.close();
    },
  };
}

/** Runs `check` on a fresh page at each of WIDTHS in `scheme`, closing each context after. */
export async function atEachWidth(
  browser: Browser,
  scheme: (typeof SCHEMES)[number],
  check: (page: Page, width: number) => Promise<void>,
): Promise<void> {
  for (const width of WIDTHS) {
    const context = await browser.newContext({
      viewport: { width, height: 480 },
      colorScheme: scheme,
    });
    try {
      await check(await context.newPage(), width);
    } finally {
      await context.close();
    }
  }
}

/** What a style suite runs with, once its beforeAll has started them. */
export interface StyleSuite {
  browser: Browser;
  st: StyleServer;
}

/**
 * Starts the service, the shop (whose page for a timer is `shopPage`'s) and Chromium before
 * the calling suite's tests, and closes them after; the answer holds them once started.
 */
export function useStyleSuite(shopPage: (t: StyleTimer, server: TestServer) => string): StyleSuite {
  const suite = {} as StyleSuite;
  beforeAll(async () => {
    suite.st = await startStyleServer(shopPage);
    suite.browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await suite.browser?.close();
    await suite.st?.close();
  });
  return suite;
}

/**
 * Every check of one drawn countdown at `sel` in `doc`: the status route's time, the style's
 * shape, the scheme's colours, the fit (and, for a top-level document, `width` as its
 * viewport), a screenshot of `page` named `name`, and rings and bars moving a second later.
 */
export async function expectStyleDrawn(
  on: StyleSuite,
  c: { style: LookStyle; scheme: (typeof SCHEMES)[number]; timer: StyleTimer },
  where: { page: Page; doc: Page | Frame; sel: Selectors; width: number | null; name: string },
): Promise<void> {
  const drawn = await read(where.doc, where.sel);
  await on.st.expectStatusTime(c.timer, drawn);
  expectShape(c.style, drawn);
  expectScheme(c.scheme, drawn);
  if (where.width !== null) expect(drawn.inner).toBe(where.width);
  expectFits(drawn);
  await shot(where.page, where.name);
  await expectMoves(c.style, where.doc, where.sel, drawn);
}
