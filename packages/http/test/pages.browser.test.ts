import { existsSync, mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedTimer, newKey, startTestServer, type TestServer } from "./_harness";
import { luminance } from "./_styles";

// The public pages on a phone and a desktop, in Debian's chromium driven by playwright-core.
// Under CI (CI=true) a missing browser fails the run; elsewhere the suite is skipped.
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const available = existsSync(CHROMIUM);
if (!available && process.env.CI)
  throw new Error(`CI needs Chromium at ${CHROMIUM} (.ci/run installs it)`);
// With TMINUS_SCREENSHOTS=<dir>, every page is also saved as <dir>/pages/<name>-<width>.png.
const SHOTS = process.env.TMINUS_SCREENSHOTS ? join(process.env.TMINUS_SCREENSHOTS, "pages") : null;

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const DAY = 86_400_000;

interface PublicTimer {
  id: string;
  urls: { page: string; embed: string; embed_script: string; gif: string; png: string };
}

let s: TestServer;
let browser: Browser;
let host: Server;
let hostUrl = "";
let key: Awaited<ReturnType<TestServer["key"]>>;

async function published(over: Record<string, unknown>): Promise<PublicTimer> {
  const created = await s.call("POST", "/api/v1/timers", {
    key,
    body: fixedTimer({
      deadline_at: new Date(Date.now() + 3 * DAY + 4_000_000).toISOString(),
      ...over,
    }),
    headers: { "idempotency-key": newKey() },
  });
  if (created.status !== 201) throw new Error(created.text);
  const pub = await s.call("POST", `/api/v1/timers/${created.json.data.id}/publish`, {
    key,
    headers: { "if-match": created.json.data.revision },
  });
  return pub.json.data;
}

const LABELS = {
  days: "Tageeeeeeeeeeeeeeeee",
  hours: "Stundennnnnnnnnnnnnn",
  minutes: "Minutennnnnnnnnnnnnn",
  seconds: "Sekundennnnnnnnnnnnn",
};

// Looks that used to make a phone scroll sideways, and the ordinary ones.
const LOOKS: Record<string, Record<string, unknown>> = {
  default: {},
  "long-name": { name: "W".repeat(200) },
  "huge-font": { look: { font_size: 200 } },
  "long-labels": { look: { font_size: 200, labels: LABELS } },
  "wide-separator": {
    look: {
      font: "mono",
      font_size: 120,
      separator: "—:—",
      units: ["hours", "minutes", "seconds"],
    },
  },
  "many-digits": {
    deadline_at: "9999-12-31T00:00:00Z",
    look: { font: "serif", font_size: 200, largest_unit: "minutes", separator: "" },
  },
  cta: {
    look: {
      font_size: 160,
      brand_color: "#FF5A1F",
      cta: { url: "https://shop.example.com/sale", label: "B".repeat(40) },
    },
  },
  ended: {
    deadline_at: "2020-01-01T00:00:00Z",
    ended: { text: "X".repeat(200) },
    look: { font_size: 200 },
  },
  // Issue 37: emoji in every text, at the widest the fields allow.
  "emoji-labels": {
    look: {
      font_size: 200,
      separator: "🔥",
      labels: { days: "días 🔥", hours: "🎁".repeat(10), minutes: "👨‍👩‍👧👨‍👩‍👧", seconds: "⏳" },
    },
  },
  "emoji-ended": {
    deadline_at: "2020-01-01T00:00:00Z",
    ended: { text: "🎅 Sale over! 🎁 ".repeat(11).trim() },
    look: { font_size: 200 },
  },
  "hidden-zeros": {
    deadline_at: new Date(Date.now() + 4_000_000).toISOString(),
    look: { font_size: 200, hide_leading_zero_units: true },
  },
};

async function open(url: string, viewport = PHONE, colorScheme: "light" | "dark" = "light") {
  const context = await browser.newContext({ viewport, colorScheme });
  const page = await context.newPage();
  const requests: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  await page.goto(url);
  await page.evaluate(() => document.fonts.ready);
  return { page, context, requests };
}

async function shot(page: Page, name: string, width: number) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
}

describe.skipIf(!available)("the public pages in Chromium, at 390 and 1280 px", () => {
  const timers: Record<string, PublicTimer> = {};

  beforeAll(async () => {
    s = await startTestServer({}, { baseUrlIsServer: true });
    key = await s.key("production");
    for (const [name, over] of Object.entries(LOOKS))
      timers[name] = await published({ name: `Summer sale ${name}`, ...over });
    timers["dark"] = await published({ name: "Night owl", look: { dark: {} } });
    // A shop on another origin that embeds two timers with the script, and a page that
    // pretends to be an embed.
    host = createServer((req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      if (req.url === "/impostor") {
        res.end(
          `<!doctype html><script>parent.postMessage({type:"tminus:height",height:900},"*")</script>`,
        );
        return;
      }
      const embed = (t: PublicTimer) =>
        `<div data-tminus-timer="${t.urls.embed}"><img src="${t.urls.gif}" alt="countdown"></div>`;
      res.end(
        `<!doctype html><html><head><meta name="viewport" content="width=device-width">` +
          `<style>body{margin:0;padding:16px;font-family:sans-serif;background:#F3F4F6}</style></head>` +
          `<body><h1>Shop</h1>${embed(timers["default"]!)}<p>Between the timers.</p>` +
          `${embed(timers["long-labels"]!)}<p>After the timers.</p>` +
          `<script async src="${timers["default"]!.urls.embed_script}"></script></body></html>`,
      );
    });
    await new Promise<void>((r) => host.listen(0, "127.0.0.1", r));
    const addr = host.address();
    hostUrl = `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}/`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((r) => (host ? host.close(() => r()) : r()));
    await s?.close();
  });

  it.each(Object.keys(LOOKS))(
    "the hosted page (%s) never scrolls sideways on a 390 px phone",
    async (name) => {
      const { page, context } = await open(timers[name]!.urls.page);
      const [scrollWidth, innerWidth] = await page.evaluate(() => [
        document.scrollingElement!.scrollWidth,
        window.innerWidth,
      ]);
      expect(innerWidth).toBe(390);
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
      // Nothing is cut off either: every piece of the countdown lies inside the viewport.
      const outside = await page.$$eval(
        ".tm-digits, .tm-sep, .tm-label, .tm-cta, h1",
        (els) =>
          els.filter((el) => {
            const r = el.getBoundingClientRect();
            return r.width > 0 && (r.left < -0.5 || r.right > window.innerWidth + 0.5);
          }).length,
      );
      expect(outside).toBe(0);
      await shot(page, name, 390);
      await context.close();
      if (["default", "long-labels", "cta", "emoji-labels", "emoji-ended"].includes(name)) {
        const wide = await open(timers[name]!.urls.page, DESKTOP);
        await shot(wide.page, name, 1280);
        await wide.context.close();
      }
    },
  );

  it("shows emoji as Twemoji pictures, the images' own, from the package's font route", async () => {
    for (const name of ["emoji-ended", "emoji-labels"]) {
      for (const url of [timers[name]!.urls.page, timers[name]!.urls.embed]) {
        const { page, context, requests } = await open(url);
        expect(requests.some((u) => /\/t\/assets\/fonts\/twemoji-[\d.]+\.woff2$/.test(u))).toBe(
          true,
        );
        const loaded = await page.evaluate(() =>
          [...document.fonts].some((f) => f.family === "tminus-emoji" && f.status === "loaded"),
        );
        expect(loaded, `${name} ${url}`).toBe(true);
        // Colour: Santa's red and the flame's orange, drawn by the COLR font.
        const png = await page.screenshot();
        const colourful = await page.evaluate(async (b64) => {
          const img = new Image();
          img.src = `data:image/png;base64,${b64}`;
          await img.decode();
          const canvas = document.createElement("canvas");
          canvas.width = img.width;
          canvas.height = img.height;
          const g = canvas.getContext("2d")!;
          g.drawImage(img, 0, 0);
          const { data } = g.getImageData(0, 0, img.width, img.height);
          let n = 0;
          for (let i = 0; i < data.length; i += 4) {
            const r = data[i]!;
            const gr = data[i + 1]!;
            const b = data[i + 2]!;
            if (r > 180 && r - b > 100 && r - gr > 40) n++;
          }
          return n;
        }, png.toString("base64"));
        expect(colourful, `${name} ${url}`).toBeGreaterThan(100);
        await context.close();
      }
    }
    // The hidden zero units: no days group shows, hours lead.
    const { page, context } = await open(timers["hidden-zeros"]!.urls.page, DESKTOP);
    const shown = await page.$$eval(".tm-group", (els) =>
      els
        .filter((el) => !(el as HTMLElement).hidden)
        .map((el) => el.querySelector(".tm-digits")!.getAttribute("data-unit")),
    );
    expect(shown).toEqual(["hours", "minutes", "seconds"]);
    await shot(page, "hidden-zeros", 1280);
    await context.close();
  });

  it("the embed itself never scrolls sideways in a 390 px frame", async () => {
    for (const name of ["huge-font", "long-labels", "many-digits", "emoji-labels"]) {
      const { page, context } = await open(timers[name]!.urls.embed);
      expect(
        await page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth),
      ).toBe(true);
      await context.close();
    }
  });

  it("draws the countdown in the look's font, served by the package with a long cache", async () => {
    for (const [name, family] of [
      ["default", "tminus-sans"],
      ["wide-separator", "tminus-mono"],
      ["many-digits", "tminus-serif"],
    ] as const) {
      const { page, context, requests } = await open(timers[name]!.urls.page);
      const origin = new URL(timers[name]!.urls.page).origin;
      expect(requests.filter((u) => !u.startsWith(origin) && !u.startsWith("data:"))).toEqual([]);
      const fonts = requests.filter((u) => u.includes("/t/assets/fonts/"));
      // Latin alone: the page's text needs no other subset.
      expect(fonts.length).toBeGreaterThan(0);
      expect(fonts.every((u) => /-latin-(400|700)\.woff2$/.test(u))).toBe(true);
      const loaded = await page.evaluate(
        (f) =>
          [...document.fonts].filter((face) => face.family === f && face.status === "loaded")
            .length,
        family,
      );
      expect(loaded).toBeGreaterThan(0);
      expect(await page.$eval(".tm-digits", (el) => getComputedStyle(el).fontFamily)).toMatch(
        new RegExp(`^"?${family}"?,`),
      );
      const res = await fetch(fonts[0]!);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("font/woff2");
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      await context.close();
    }
  });

  it("has a favicon and share tags whose image is the timer's PNG at an absolute URL", async () => {
    const t = timers["cta"]!;
    const { page, context } = await open(t.urls.page);
    const meta = (key: string) =>
      page.$eval(`meta[property="${key}"], meta[name="${key}"]`, (el) =>
        el.getAttribute("content"),
      );
    expect(await meta("og:title")).toBe("Summer sale cta");
    expect(await meta("og:url")).toBe(t.urls.page);
    expect(await meta("twitter:card")).toBe("summary_large_image");
    const image = (await meta("og:image"))!;
    expect(image).toBe(`${t.urls.png}?width=1200`);
    expect(await meta("twitter:image")).toBe(image);
    expect(await meta("og:description")).toMatch(/^3 days, 1 hour, \d+ minutes$/);
    const png = await fetch(image);
    expect(png.status).toBe(200);
    expect(png.headers.get("content-type")).toBe("image/png");
    const icon = await page.$eval('link[rel="icon"]', (el) => (el as HTMLLinkElement).href);
    expect(decodeURIComponent(icon)).toContain('fill="#FF5A1F"');
    await context.close();
  });

  it("shows the call to action as a button in the brand colour", async () => {
    const t = timers["cta"]!;
    for (const viewport of [PHONE, DESKTOP]) {
      const { page, context } = await open(t.urls.page, viewport);
      const cta = page.locator("a.tm-cta");
      expect(await cta.getAttribute("href")).toBe("https://shop.example.com/sale");
      expect(await cta.textContent()).toBe("B".repeat(40));
      const style = await cta.evaluate((el) => {
        const cs = getComputedStyle(el);
        const r = el.getBoundingClientRect();
        return { bg: cs.backgroundColor, fg: cs.color, height: r.height };
      });
      expect(style.bg).toBe("rgb(255, 90, 31)");
      // Dark text on orange reads better than white (contrast ratio 7.0 against 2.9).
      expect(style.fg).toBe("rgb(17, 24, 39)");
      expect(style.height).toBeGreaterThanOrEqual(44);
      await shot(page, "cta-light", viewport.width);
      await context.close();
    }
  });

  it("the dark variant is visibly dark: the page in dark mode and the default look's dark PNG", async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const { page, context } = await open(timers["dark"]!.urls.page, viewport, "dark");
      const [bg, fg] = await page.evaluate(() => [
        getComputedStyle(document.body).backgroundColor,
        getComputedStyle(document.body).color,
      ]);
      expect(luminance(bg!)).toBeLessThan(0.05);
      expect(luminance(fg!)).toBeGreaterThan(0.8);
      await shot(page, "dark", viewport.width);
      await context.close();
    }
    // The default look has no dark colours; its dark image is dark all the same. The pixel
    // is read back in the browser, as a mail client in dark mode would show it.
    const { page, context } = await open(`${timers["default"]!.urls.png}?variant=dark`);
    const corner = await page.evaluate(() => {
      const img = document.querySelector("img")!;
      const canvas = document.createElement("canvas");
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const g = canvas.getContext("2d")!;
      g.drawImage(img, 0, 0);
      const [r, gr, b] = g.getImageData(20, Math.floor(img.naturalHeight / 2), 1, 1).data;
      return `rgb(${r}, ${gr}, ${b})`;
    });
    expect(luminance(corner)).toBeLessThan(0.05);
    await context.close();
  });

  it("the embed iframe takes its content's height, so no band shows under the timer", async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const { page, context } = await open(hostUrl, viewport);
      const frames = page.locator("iframe");
      await frames.nth(1).waitFor({ timeout: 10_000 });
      for (let i = 0; i < 2; i++) {
        const handle = (await frames.nth(i).elementHandle())!;
        const frame = (await handle.contentFrame())!;
        await frame.locator("#tm-embed").waitFor();
        await frame.evaluate(() => document.fonts.ready);
        // The height arrives by postMessage; wait for it to settle on the content's.
        await expect
          .poll(
            async () => {
              const content = await frame.$eval(
                "#tm-embed",
                (el) => el.getBoundingClientRect().height,
              );
              const box = await handle.evaluate((el) => el.getBoundingClientRect().height);
              return Math.abs(box - content);
            },
            { timeout: 5000 },
          )
          .toBeLessThanOrEqual(2);
        // Around the panel the host page shows through: no band of the look's background.
        expect(
          await frame.evaluate(() => getComputedStyle(document.documentElement).backgroundColor),
        ).toBe("rgba(0, 0, 0, 0)");
      }
      // The two looks differ in height, so neither is the script's 160 px default.
      const heights = await frames.evaluateAll((els) =>
        els.map((el) => Math.round(el.getBoundingClientRect().height)),
      );
      expect(heights[0]).not.toBe(heights[1]);
      expect(heights).not.toContain(160);
      await shot(page, "embed", viewport.width);
      await context.close();
    }
  });

  it("the embed script ignores height messages from anyone but the embed's own origin", async () => {
    const { page, context } = await open(hostUrl);
    const frame = page.locator("iframe").first();
    await frame.waitFor();
    await expect
      .poll(() => frame.evaluate((el) => el.getBoundingClientRect().height))
      .not.toBe(160);
    const before = await frame.evaluate((el) => el.getBoundingClientRect().height);
    // The host page itself, then the same iframe navigated to a page of another origin.
    await page.evaluate(() => window.postMessage({ type: "tminus:height", height: 900 }, "*"));
    await frame.evaluate((el, url) => {
      (el as HTMLIFrameElement).src = url;
    }, `${hostUrl}impostor`);
    await page.waitForTimeout(500);
    expect(await frame.evaluate((el) => el.getBoundingClientRect().height)).toBe(before);
    await context.close();
  });
});
