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

async function owner(): Promise<{
  page: Page;
  timerId: string;
  key: Awaited<ReturnType<TestServer["key"]>>;
  close: () => Promise<void>;
}> {
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
  return { page, timerId: timer.id, key, close: () => context.close() };
}

/** Runs `look` in the light and the dark theme, at 1280x800 and at 390x844. */
async function inEveryView(
  page: Page,
  look: (scheme: "light" | "dark", width: number) => Promise<void>,
): Promise<void> {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [w, h] of [
      [1280, 800],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      await look(scheme, w);
    }
  }
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
    expect(placeholder).toBe("Countdown: 3 days from when you first open this email");
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
    expect(copied).toContain("r={{person.KlaviyoID}}");
    expect(copied).toContain('width="300"');
    // 2x: the same width asked at scale 2, so the server draws twice the width and height.
    const src = /src="([^"]+)"/.exec(copied)![1]!.replace(/&amp;/g, "&");
    expect(new URL(src).searchParams.get("width")).toBe("300");
    expect(new URL(src).searchParams.get("scale")).toBe("2");
    expect(copied).toContain('alt="Sale ends Friday &amp; &quot;soon&quot; &lt;b>"');
    expect(/href="([^"]+)"/.exec(copied)![1]!).toBe(
      `${s.url}/t/${timerId}/go?r={{person.KlaviyoID}}`,
    );
    // The look has no dark variant: no dark picture until it is asked for.
    expect(copied).not.toContain("<picture>");
    await page.check("#share-dark");
    await page.waitForFunction(() =>
      (document.getElementById("snippet-merge") as HTMLTextAreaElement | null)?.value.includes(
        "<picture>",
      ),
    );
    const dark = await page.inputValue("#snippet-merge");
    expect(dark).toContain('<source media="(prefers-color-scheme: dark)" srcset="');
    expect(dark).toContain("variant=dark&amp;width=300&amp;scale=2");

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
    expect(plain).toContain("?width=250&amp;scale=2&amp;r=%%LOYALTY_ID%%");
    expect(plain).toContain('width="250"');
    expect(plain).toContain('alt="Hi"');

    // Both widths, light and dark: nothing scrolls sideways, axe finds nothing serious.
    await page.goto(`${s.url}${path}?platform=Klaviyo&width=300&retina=2`);
    await inEveryView(page, async (scheme, w) => {
      await page.locator("#share-platform").scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, `share-${scheme}-${w}.png`), fullPage: true });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        w,
      );
      expect(await axe(page)).toEqual([]);
    });
    await close();
  }, 120_000);

  it("builds a personalized timer in a marketer's words: zone suggested, fallback, links", async () => {
    const { page, timerId, key, close } = await owner();
    await page.goto(`${s.url}/dashboard/production/timers/new`);
    await page.fill("#name", "Trial ends");
    await page.check("input[name=type][value=personalized]");
    // Empty, the fallback says what test sends would show.
    expect(await page.textContent("#fallback_local-problem")).toContain("test sends");
    // A zone typed as a city: the live preview suggests the canonical one, in the form's words.
    await page.fill("#timezone", "New York");
    await page.waitForFunction(() =>
      document.getElementById("preview-status")?.textContent?.includes("America/New_York"),
    );
    expect(await page.textContent("#preview-status")).toBe(
      "Time zone: “New York” is not a time zone name from the list. Did you mean America/New_York?",
    );
    await page.fill("#timezone", "America/New_York");
    await page.check("input[name=require_signature]");
    await page.fill("#fallback_local", "2026-12-04T23:59");
    expect(await page.isHidden("#fallback_local-problem")).toBe(true);
    await page.fill("#click_url", "https://shop.example/trial");
    await page.fill("#ended_click_url", "https://shop.example/trial-over");
    // Per recipient, the preview claims no single end; the fallback's UTC day is Saturday.
    await page.waitForFunction(() =>
      document.getElementById("preview-status")?.textContent?.includes("own deadline"),
    );
    expect(await page.textContent("#preview-status")).toContain(
      "Links without a valid deadline count to Fri 4 Dec, 23:59 New York time (Sat 5 Dec 04:59 UTC)",
    );
    await inEveryView(page, async (scheme, w) => {
      await page.locator("#fallback_local").scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, `builder-personal-${scheme}-${w}.png`) });
      await page.locator("#click_url").scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, `builder-links-${scheme}-${w}.png`) });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        w,
      );
    });
    await page.emulateMedia({ colorScheme: "light" });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.click("text=Create timer");
    await page.waitForURL(/notice=created$/);
    const id = /timers\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    await page.click("button:has-text('Publish')");
    await page.waitForURL(/notice=published$/);
    await page.goto(
      `${s.url}/dashboard/production/timers/${id}?share=1&platform=Braze&retina=2&dark=1`,
    );
    const code = await page.inputValue("#snippet-merge");
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Braze's syntax, not a template.
    expect(code).toContain("deadline={{custom_attribute.${countdown_deadline}}}");
    expect(code).toContain("<picture>");
    expect(await page.inputValue("#click_url")).toBe("https://shop.example/trial");
    await inEveryView(page, async (scheme, w) => {
      await page.locator("#share-platform").scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, `share-personal-${scheme}-${w}.png`) });
      await page.locator("#snippet-merge").scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, `share-snippet-${scheme}-${w}.png`) });
      expect(await axe(page)).toEqual([]);
    });
    // A draft offers no Pause (it shows nowhere); a published evergreen timer does.
    const draft = await s.call("POST", "/api/v1/timers", {
      key,
      body: { name: "Draft sale", type: "fixed", deadline_at: "2026-12-24T12:00:00Z" },
      headers: { "idempotency-key": newKey() },
    });
    expect(draft.status, draft.text).toBe(201);
    const pauses = async (id: string) => {
      await page.goto(`${s.url}/dashboard/production/timers/${id}`);
      return page.locator(".actions button", { hasText: /^Pause$/ }).count();
    };
    expect(await pauses(draft.json.data.id)).toBe(0);
    expect(await pauses(timerId)).toBe(1);
    await close();
  }, 180_000);
});
