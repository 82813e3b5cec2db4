// A signed-in dashboard owner in a real browser, and the form's problem notes: what the
// Chromium tests of the builder share.
import type { Browser, Page } from "playwright-core";
import type { TestServer } from "./_harness";

const PASSWORD = "correct horse battery staple";

/** A new account's owner, signed in through their one-time link, in a 1280x800 window. */
export async function signedInPage(s: TestServer, browser: Browser, timezoneId = "Europe/Berlin") {
  const key = await s.key("production");
  const { link } = await s.admin.createUser({
    account: key.account,
    email: `owner-${Math.random().toString(36).slice(2, 10)}@example.com`,
    role: "owner",
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId });
  const page = await context.newPage();
  await page.goto(link.url!);
  await page.fill("#password", PASSWORD);
  await page.fill("#confirm", PASSWORD);
  await page.click("button[type=submit]");
  await page.waitForURL(`${s.url}/dashboard/production`);
  return { page, key, close: () => context.close() };
}

/** The text of the problem shown right after the field `id` (null: none). */
export function noteAfter(page: Page, id: string): Promise<string | null> {
  return page.evaluate((fieldId) => {
    const field = document.getElementById(fieldId)!;
    let next = field.nextElementSibling ?? field.parentElement!.nextElementSibling;
    while (next && !/field-(error|warning)/.test(next.className)) next = next.nextElementSibling;
    return next?.textContent ?? null;
  }, id);
}
