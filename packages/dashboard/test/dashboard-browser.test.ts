import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_HOW, skipping } from "../../../test/_skipping";
import { axe } from "../../http/test/_axe";
import { startTestServer, type TestServer } from "./_harness";

// The dashboard in a real browser: Debian's chromium through playwright-core. Under CI=true a
// missing browser fails the run. Screenshots of every page at 1280x800 and 390x844, in the
// light and the dark theme, go to artifacts/dashboard/ (gitignored; CI keeps them as
// artefacts), with a full-length one at 390 px.
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const available = existsSync(CHROMIUM);
if (!available && process.env.CI)
  throw new Error(`CI needs Chromium at ${CHROMIUM} (.ci/run installs it)`);
if (!available) skipping(`Chromium at ${CHROMIUM}`, CHROMIUM_HOW);
const SHOTS = join(import.meta.dirname, "../../../artifacts/dashboard");
const PASSWORD = "correct horse battery staple";

let s: TestServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const audited: { name: string; violations: string[] }[] = [];

/**
 * What is cut off at the viewport's width: buttons, links styled as buttons and form fields
 * in the page's main content whose box reaches past the window's sides or past the visible
 * part of a scrolling or clipping ancestor (a table scrolled in its card hides its last
 * column there).
 */
async function clippedControls(p: Page): Promise<string[]> {
  return p.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    const controls = document.querySelectorAll<HTMLElement>(
      "main button, main a.button, main input:not([type=hidden]), main select, main textarea",
    );
    for (const el of controls) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue; // not shown (hidden, closed details)
      let clipped = box.left < -0.5 || box.right > width + 0.5;
      for (let a = el.parentElement; a && !clipped; a = a.parentElement) {
        const style = getComputedStyle(a);
        if (style.overflowX === "visible") continue;
        const frame = a.getBoundingClientRect();
        clipped = box.left < frame.left - 0.5 || box.right > frame.right + 0.5;
      }
      if (clipped) {
        const label = el.textContent?.trim() || el.getAttribute("name") || el.id;
        out.push(
          `${el.tagName.toLowerCase()} "${label}" at ${Math.round(box.left)}..${Math.round(box.right)}`,
        );
      }
    }
    return out;
  });
}

/**
 * Audits the current page with axe and saves it at both widths, in the light and the dark
 * theme (prefers-color-scheme); at 390 px nothing may scroll sideways and no control may be
 * cut off.
 */
async function capture(name: string): Promise<void> {
  await page.waitForLoadState("load");
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const suffix = scheme === "dark" ? "-dark" : "";
    await page.setViewportSize({ width: 1280, height: 800 });
    audited.push({ name: `${name}${suffix}`, violations: await axe(page) });
    for (const [w, h] of [
      [1280, 800],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      await page.screenshot({ path: join(SHOTS, `${name}${suffix}-${w}.png`), fullPage: false });
      if (w === 390) {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(overflow, `${name} scrolls sideways at 390 px`).toBeLessThanOrEqual(390);
        expect(await clippedControls(page), `${name}: controls cut off at 390 px`).toEqual([]);
        if (scheme === "light") {
          audited.push({ name: `${name}-390`, violations: await axe(page) });
          await page.screenshot({ path: join(SHOTS, `${name}-390-full.png`), fullPage: true });
        }
      }
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe.skipIf(!available)("dashboard in headless Chromium", () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    s = await startTestServer({}, { baseUrlIsServer: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
    });
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: s.url });
    page = await context.newPage();
    page.on("dialog", (d) => d.accept());
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it("walks a marketer's day: sign in, key, recurring timer with preview, publish, share, revoke", async () => {
    const bootstrap = await s.key("sandbox");
    const { link } = await s.admin.createUser({
      account: bootstrap.account,
      email: "marketer@example.com",
      role: "owner",
    });
    expect(link.url).toBe(`${s.url}${link.path}`);

    // 1. Sign in with the one-time link.
    await page.goto(link.url!);
    await capture("set-password");
    await page.fill("#password", PASSWORD);
    await page.fill("#confirm", PASSWORD);
    await page.click("button[type=submit]");
    await page.waitForURL(`${s.url}/dashboard/production`);
    await capture("overview");

    // 2. Create a production key and copy its secret.
    await page.click("nav.main >> text=API keys");
    await capture("keys");
    await page.fill("#key-name", "Newsletter integration");
    await page.click("text=Create production key");
    const secret = await page.inputValue("#secret");
    expect(secret).toMatch(/^svc_live_/);
    await page.click("button[data-copy=secret]");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    expect(await page.textContent("tbody")).toContain("Newsletter integration");
    await capture("keys-created");
    expect((await s.call("GET", "/api/v1/usage", { key: secret })).status).toBe(200);

    // 3. Build a recurring timer and watch the preview follow the form.
    await page.click("nav.main >> text=Timers");
    await capture("timers");
    await page.click("text=Build a timer");
    await page.fill("#name", "Weekly drop");
    await page.check("input[name=type][value=recurring]");
    await page.fill("#timezone", "Europe/Berlin");
    const status = page.locator("#preview-status");
    // The first preview starts the render threads: give it time on a busy machine.
    await expect
      .poll(() => status.textContent(), { timeout: 30_000 })
      .toContain("Every week on Friday at 17:00 (Europe/Berlin)");
    const firstPreview = await page.getAttribute("#preview-image", "src");
    await page.check("input[name=byday][value=MO]");
    await page.fill("#at_time", "09:30");
    await expect
      .poll(() => status.textContent(), { timeout: 30_000 })
      .toContain("Every week on Monday, Friday at 09:30 (Europe/Berlin)");
    expect(await page.getAttribute("#preview-image", "src")).not.toBe(firstPreview);
    expect(
      await page.evaluate(
        () => (document.getElementById("preview-image") as HTMLImageElement).naturalWidth,
      ),
    ).toBeGreaterThan(0);
    await capture("builder");
    // A preview creates nothing: no timer, nothing counted against the allowance.
    expect((await s.call("GET", "/api/v1/timers", { key: secret })).json.data).toEqual([]);

    await page.click("text=Create timer");
    await page.waitForURL(/\/dashboard\/production\/timers\/[0-9a-f-]{36}\?notice=created$/);
    const timerId = /timers\/([0-9a-f-]{36})/.exec(page.url())![1]!;

    // 4. Publish it, copy the email <img> snippet (in its /go link), and fetch the image it names.
    await page.click("button:has-text('Publish')");
    await page.waitForURL(/notice=published$/);
    await capture("timer-published");
    await page.click("button[data-copy=snippet-img]");
    const snippet = await page.evaluate(() => navigator.clipboard.readText());
    // The image inside the link that follows the timer (docs/email.md).
    expect(snippet).toMatch(
      /^<a href="[^"]+"><img src="[^"]+" width="600" height="\d+" alt="Countdown to the next one: every [A-Z][a-z]+( and [A-Z][a-z]+)? at \d\d:\d\d [^"]+"/,
    );
    expect(/href="([^"]+)"/.exec(snippet)![1]!).toBe(`${s.url}/t/${timerId}/go`);
    const src = /src="([^"]+)"/.exec(snippet)![1]!;
    expect(src).toBe(`${s.url}/t/${timerId}/countdown.gif?width=600`);
    const gif = await fetch(src);
    expect(gif.status).toBe(200);
    expect(gif.headers.get("content-type")).toBe("image/gif");
    const stored = await s.call("GET", `/api/v1/timers/${timerId}`, { key: secret });
    expect(stored.json.data.status).toBe("published");
    expect(stored.json.data.recurrence.rrule).toBe("FREQ=WEEKLY;BYDAY=MO,FR;BYHOUR=9;BYMINUTE=30");

    await page.click("nav.main >> text=Timers");
    await capture("timers-list");

    // 5. Revoke the key (with the confirmation) and see the API refuse it.
    await page.click("nav.main >> text=API keys");
    await page.check("form[action$='/revoke'] input[name=confirm]");
    await page.click("form[action$='/revoke'] button");
    await page.waitForURL(/notice=revoked$/);
    const refused = await s.call("GET", "/api/v1/usage", { key: secret });
    expect(refused.status).toBe(401);
    expect(refused.json.error.code).toBe("invalid_api_key");

    // The remaining pages, for the audit and the screenshots.
    await page.click("nav.main >> text=Usage");
    await capture("usage");
    await page.click("nav.main >> text=Webhooks");
    await page.fill("#d-url", "https://hooks.example.com/tminus");
    await page.fill("#d-description", "Order system");
    await page.click("text=Add destination");
    await expect.poll(() => page.textContent("#secret-title")).toBe("Destination added");
    await page.click("nav.main >> text=Webhooks");
    await capture("webhooks");

    // Members: invite a member, see the one-time link once, find them in the list.
    await page.click("nav.main >> text=Members");
    await capture("members");
    await page.fill("#invite-email", "writer@example.com");
    await page.click("form[action$='/members'] button[type=submit]");
    const invite = await page.inputValue("#secret");
    expect(invite).toMatch(/\/dashboard\/set-password\?token=/);
    expect(await page.textContent("tbody")).toContain("writer@example.com");
    await capture("members-invited");
    await page.click(".env >> text=Sandbox");
    await page.waitForURL(/\/dashboard\/sandbox\/members$/);
    await page.click("button:has-text('Sign out')");
    await page.waitForURL(/sign-in/);
    await capture("sign-in");

    for (const a of audited) expect(a.violations, `axe on ${a.name}`).toEqual([]);
  }, 120_000);
});
