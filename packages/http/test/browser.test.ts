import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedTimer, newKey, startTestServer, type TestServer } from "./_harness";

// A real browser: Debian's chromium, driven by playwright-core. CI installs it (.ci/run) and
// sets CI=true, where a missing browser fails the run; on a developer machine without it the
// suite is skipped with this message instead of failing the README's test command.
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const available = existsSync(CHROMIUM);
if (!available && process.env.CI)
  throw new Error(`CI needs Chromium at ${CHROMIUM} (.ci/run installs it)`);
const XSS_NAME = "<img src=x onerror=alert(1)>";

let s: TestServer;
let browser: Browser;
let host: Server;
let hostUrl = "";
let timer: { id: string; urls: { page: string; embed: string; embed_script: string; gif: string } };

describe.skipIf(!available)("hosted page and embed in headless Chromium", () => {
  beforeAll(async () => {
    s = await startTestServer({}, { baseUrlIsServer: true });
    const key = await s.key("production");
    const created = await s.call("POST", "/api/v1/timers", {
      key,
      body: fixedTimer({
        name: XSS_NAME,
        deadline_at: new Date(Date.now() + 3 * 86_400_000).toISOString(),
      }),
      headers: { "idempotency-key": newKey() },
    });
    const pub = await s.call("POST", `/api/v1/timers/${created.json.data.id}/publish`, {
      key,
      headers: { "if-match": created.json.data.revision },
    });
    timer = pub.json.data;
    // A shop page on another origin that embeds the timer with the script.
    host = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(
        `<!doctype html><html><body><h1>Shop</h1>` +
          `<div data-tminus-timer="${timer.urls.embed}"><img src="${timer.urls.gif}" alt="countdown"></div>` +
          `<script async src="${timer.urls.embed_script}"></script></body></html>`,
      );
    });
    await new Promise<void>((r) => host.listen(0, "127.0.0.1", r));
    const addr = host.address();
    hostUrl = `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}/`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((r) => (host ? host.close(() => r()) : r()));
    await s?.close();
  });

  async function openPage(
    url: string,
    options: { javaScriptEnabled?: boolean; clockOffsetMs?: number } = {},
  ) {
    const context = await browser.newContext({
      javaScriptEnabled: options.javaScriptEnabled ?? true,
    });
    const page = await context.newPage();
    const dialogs: string[] = [];
    const requests: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    page.on("request", (r) => requests.push(r.url()));
    if (options.clockOffsetMs) {
      // The viewer's own clock is wrong by this much: the countdown must not care.
      await page.clock.install({ time: Date.now() + options.clockOffsetMs });
      await page.clock.resume();
    }
    await page.goto(url);
    return { page, context, dialogs, requests };
  }

  const timerText = (page: import("playwright-core").Page) =>
    page.locator('[role="timer"]').first().textContent();

  it("the hosted page ticks, shows the name as text, runs no injected script, loads nothing external", async () => {
    const { page, context, dialogs, requests } = await openPage(timer.urls.page);
    const first = await timerText(page);
    expect(first).toMatch(/\d/);
    await page.waitForTimeout(2200);
    expect(await timerText(page)).not.toBe(first);
    expect(await page.locator("h1").first().textContent()).toBe(XSS_NAME);
    expect(await page.locator("img[src=x]").count()).toBe(0);
    expect(dialogs).toEqual([]);
    const origin = new URL(timer.urls.page).origin;
    expect(requests.filter((u) => !u.startsWith(origin) && !u.startsWith("data:"))).toEqual([]);
    await context.close();
  });

  it("counts from the server's time even when the viewer's clock is a day wrong", async () => {
    const honest = await openPage(timer.urls.page);
    const skewed = await openPage(timer.urls.page, { clockOffsetMs: -86_400_000 });
    // Sum the digit groups by their unit (data-unit marks each group).
    const UNIT = { days: 86_400, hours: 3600, minutes: 60, seconds: 1 } as Record<string, number>;
    const seconds = (page: import("playwright-core").Page) =>
      page
        .locator("[data-unit]")
        .evaluateAll(
          (els, unit) =>
            els.reduce(
              (acc, el) =>
                acc + Number(el.textContent) * (unit[el.getAttribute("data-unit")!] ?? 0),
              0,
            ),
          UNIT,
        );
    const a = await seconds(honest.page);
    const b = await seconds(skewed.page);
    expect(a).toBeGreaterThan(2 * 86_400);
    expect(Math.abs(a - b)).toBeLessThanOrEqual(3);
    await honest.context.close();
    await skewed.context.close();
  });

  it("without JavaScript the server-rendered time is shown", async () => {
    const { page, context } = await openPage(timer.urls.page, { javaScriptEnabled: false });
    expect(await timerText(page)).toMatch(/\d/);
    await context.close();
  });

  it("the embed script turns the div into an iframe that ticks", async () => {
    const { page, context, dialogs } = await openPage(hostUrl);
    const frameEl = page.locator("iframe");
    await frameEl.waitFor({ timeout: 10_000 });
    const frame = await (await frameEl.elementHandle())!.contentFrame();
    const locator = frame!.locator('[role="timer"]').first();
    await locator.waitFor();
    const first = await locator.textContent();
    await page.waitForTimeout(2200);
    expect(await locator.textContent()).not.toBe(first);
    expect(dialogs).toEqual([]);
    await context.close();
  });
});
