import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axe } from "../../http/test/_axe";
import { chromiumAvailable, launchChromium } from "../../http/test/_chromium";
import { newKey, startTestServer, type TestServer } from "./_harness";

// Issue 23's share panel in a real Chromium against a real server with a set clock: pick a
// platform, width and 2x, type the alt text, and copy the snippet the page made; the same
// options work without script as a query. Screenshots go to artifacts/dashboard/share-*.png
// at 1280x800 and 390x844, light and dark.
const SHOTS = join(import.meta.dirname, "../../../artifacts/dashboard");
const PASSWORD = "correct horse battery staple";
/** Thursday 26 November 2026, 20:30 in Berlin. */
const THURSDAY_EVENING = Date.parse("2026-11-26T19:30:00Z");

let s: TestServer;
let browser: Browser;

async function owner(): Promise<{ page: Page; timerId: string; close: () => Promise<void> }> {
  const key = await s.key("production");
  const { link } = await s.admin.createUser({
    account: key.account,
    email: `owner-${Math.random().toString(36).slice(2, 10)}@example.com`,
    role: "owner",
  });
  const made = await s.call("POST", "/api/v1/timers", {
    key,
    body: {
      name: "internal-welcome-q4",
      type: "duration",
      duration_seconds: 3 * 86_400,
      timezone: "Europe/Berlin",
    },
    headers: { "idempotency-key": newKey() },
  });
  expect(made.status, made.text).toBe(201);
  const timer = made.json.data as { id: string; revision: string };
  const published = await s.call("POST", `/api/v1/timers/${timer.id}/publish`, {
    key,
    headers: { "if-match": timer.revision },
  });
  expect(published.status, published.text).toBe(200);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: s.url });
  const page = await context.newPage();
  await page.goto(link.url!);
  await page.fill("#password", PASSWORD);
  await page.fill("#confirm", PASSWORD);
  await page.click("button[type=submit]");
  await page.waitForURL(`${s.url}/dashboard/production`);
  return { page, timerId: timer.id, close: () => context.close() };
}

describe.skipIf(!chromiumAvailable)("the share panel, in headless Chromium", () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    s = await startTestServer({}, { baseUrlIsServer: true });
    s.setNow(THURSDAY_EVENING);
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it("builds the chosen platform's snippet at the chosen width, 2x and alt text", async () => {
    const { page, timerId, close } = await owner();
    const path = `/dashboard/production/timers/${timerId}`;
    await page.goto(`${s.url}${path}`);

    // An evergreen timer: the per-recipient snippet first, the plain one says it is shared.
    const titles = await page.locator("#share-snippets section h3").allTextContents();
    expect(titles[0]).toMatch(/per recipient/);
    expect(titles[1]).toMatch(/everyone shares one countdown/i);
    // The default alt text says the length, not the internal name.
    const placeholder = await page.getAttribute("#share-alt", "placeholder");
    expect(placeholder).toBe("Countdown: 3 days from when you open this email");
    expect(await page.inputValue("#snippet-merge")).not.toContain("internal-welcome-q4");

    await page.selectOption("#share-platform", "Klaviyo");
    await page.fill("#share-width", "300");
    await page.check("#share-retina");
    await page.fill("#share-alt", 'Sale ends Friday & "soon" <b>');
    // The script fetches the page for the options and swaps the snippets in.
    await page.waitForFunction(() => {
      const code = (document.getElementById("snippet-merge") as HTMLTextAreaElement | null)?.value;
      return !!code && code.includes('width="300"') && code.includes("&lt;b>");
    });
    await page.click("button[data-copy=snippet-merge]");
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain("r={{ person.id }}");
    expect(copied).toContain('width="300"');
    const src = /src="([^"]+)"/.exec(copied)![1]!.replace(/&amp;/g, "&");
    expect(new URL(src).searchParams.get("width")).toBe("600");
    expect(copied).toContain('alt="Sale ends Friday &amp; &quot;soon&quot; &lt;b>"');
    expect(/href="([^"]+)"/.exec(copied)![1]!).toBe(`${s.url}/t/${timerId}/go?r={{ person.id }}`);

    // The live image beside it loads, drawn at 600 px for 2x.
    // The copy click took the focus from the alt field: its change event may swap the snippets
    // in once more, so the image is looked up afresh rather than held.
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>("#share-snippets img.live");
      img?.scrollIntoView({ block: "nearest" });
      return !!img && img.complete && img.naturalWidth > 0;
    });
    expect(
      await page.evaluate(
        () => document.querySelector<HTMLImageElement>("#share-snippets img.live")?.naturalWidth,
      ),
    ).toBe(600);

    // "Send yourself a preview" opens a sample recipient's image in a new tab, counted as a
    // preview: no viewer is made for it.
    const preview = page.locator("a:has-text('Send yourself a preview')");
    expect(await preview.getAttribute("target")).toBe("_blank");
    const res = await fetch(new URL((await preview.getAttribute("href"))!, s.url));
    expect(res.status).toBe(200);
    expect(res.headers.get("x-tminus-preview")).toBe("unfilled-merge-tag");
    expect(res.headers.get("set-cookie")).toBeNull();

    // Without script the same options are the page's query.
    await page.goto(
      `${s.url}${path}?platform=Salesforce+Marketing+Cloud&width=250&retina=2&field=LOYALTY_ID&alt=Hi`,
    );
    const plain = await page.inputValue("#snippet-merge");
    expect(plain).toContain("?width=500&amp;r=%%LOYALTY_ID%%");
    expect(plain).toContain('width="250"');
    expect(plain).toContain('alt="Hi"');

    // Both widths, light and dark: nothing scrolls sideways, axe finds nothing serious.
    await page.goto(`${s.url}${path}?platform=Klaviyo&width=300&retina=2`);
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [w, h] of [
        [1280, 800],
        [390, 844],
      ] as const) {
        await page.setViewportSize({ width: w, height: h });
        await page.locator("#share-platform").scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(SHOTS, `share-${scheme}-${w}.png`), fullPage: true });
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          w,
        );
        expect(await axe(page)).toEqual([]);
      }
    }
    await close();
  }, 120_000);
});
