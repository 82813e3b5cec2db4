import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, launchChromium } from "../../http/test/_chromium";
import { startTestServer, type TestServer } from "./_harness";
import { noteAfter, signedInPage } from "./_signed-in-page";

// Issue 37 in the builder, in a real Chromium against a real server: a character images cannot
// draw is refused in the form's words with the character named (live in the preview, and on
// create, next to the field), emoji are kept and drawn, and "hide units while they are zero" is
// a checkbox the live preview follows and the timer keeps. Screenshots go to
// artifacts/dashboard/characters-*.png at 1280 and 390 px.
const SHOTS = join(import.meta.dirname, "../../../artifacts/dashboard");
/** Thursday 26 November 2026, 20:30 in Berlin. */
const THURSDAY_EVENING = Date.parse("2026-11-26T19:30:00Z");

let s: TestServer;
let browser: Browser;

/**
 * The preview as the page shows it (its pixels, as a data URL) once the preview asked for
 * after `act`, with the hide box ticked or not, has arrived.
 */
async function previewAfter(page: Page, act: () => Promise<void>, hide: boolean): Promise<string> {
  const before = await page.getAttribute("form[data-preview]", "data-preview-state");
  await Promise.all([
    page.waitForResponse(
      (r) =>
        r.url().includes("/preview.png?") &&
        r.url().includes("hide_leading_zero_units=on") === hide &&
        r.status() === 200,
    ),
    act(),
  ]);
  await page.waitForFunction((old) => {
    const form = document.querySelector<HTMLFormElement>("form[data-preview]")!;
    return form.dataset.previewState !== old && form.dataset.previewState !== "error";
  }, before);
  // Quiet: no other preview on its way.
  await page.waitForTimeout(600);
  return page.evaluate(async () => {
    const img = document.getElementById("preview-image") as HTMLImageElement;
    await img.decode();
    const canvas = document.createElement("canvas");
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    canvas.getContext("2d")!.drawImage(img, 0, 0);
    return canvas.toDataURL();
  });
}

describe.skipIf(!chromiumAvailable)("every character drawn or refused, in the builder", () => {
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

  it("refuses an undrawable character by name, keeps emoji, and hides zero units on request", async () => {
    const { page, key, close } = await signedInPage(s, browser);
    await page.goto(`${s.url}/dashboard/production/timers/new`);
    await page.fill("#name", "Flash sale");
    await page.fill("#timezone", "Europe/Berlin");
    // Five hours from the server's Thursday evening: "0 days 05 hours ...".
    await page.fill("#deadline_local", "2026-11-27T01:30");

    // Live: the preview says what is wrong, in the form's words, naming the character.
    await page.fill("#ended_text", "Sale over \uE000");
    const refusal =
      'Text shown instead of the digits: U+E000 "\uE000" (character 11) cannot be drawn: no font and no emoji has it';
    await expect.poll(() => page.textContent("#preview-status"), { timeout: 30_000 }).toBe(refusal);
    // On create: refused next to the field, nothing made, what was typed kept.
    await page.click("text=Create timer");
    await page.waitForLoadState("load");
    expect(await noteAfter(page, "ended_text")).toBe(refusal);
    expect(await page.getAttribute("#ended_text", "aria-invalid")).toBe("true");
    expect(await page.inputValue("#ended_text")).toBe("Sale over \uE000");
    const none = await s.call("GET", "/api/v1/timers", { key });
    expect(none.json.data).toHaveLength(0);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator("#ended_text").scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, "characters-refused-390.png") });
    await page.setViewportSize({ width: 1280, height: 800 });

    // Emoji: drawn in the preview, and the checkbox changes the preview.
    await page.click("summary:has-text('Own label words')");
    const shown = await previewAfter(
      page,
      () =>
        page
          .fill("#ended_text", "🎅 Sale over! 🎁")
          .then(() => page.fill("#label_days", "días 🔥")),
      false,
    );
    expect(await page.textContent("#preview-status")).toMatch(/^Ends /);
    const hidden = await previewAfter(
      page,
      () => page.check("input[name=hide_leading_zero_units]"),
      true,
    );
    expect(hidden).not.toBe(shown);
    const back = await previewAfter(
      page,
      () => page.uncheck("input[name=hide_leading_zero_units]"),
      false,
    );
    expect(back).toBe(shown);
    expect(
      await previewAfter(page, () => page.check("input[name=hide_leading_zero_units]"), true),
    ).toBe(hidden);
    await page.locator("#preview-image").scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, "characters-builder-1280.png"), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(SHOTS, "characters-builder-390.png"), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.click("text=Create timer");
    await page.waitForURL(/notice=created$/);
    const made = await s.call("GET", "/api/v1/timers", { key });
    const timer = made.json.data[0];
    expect(timer.ended.text).toBe("🎅 Sale over! 🎁");
    expect(timer.look.labels.days).toBe("días 🔥");
    expect(timer.look.hide_leading_zero_units).toBe(true);
    // Its page (the edit form) shows the box ticked.
    await page.goto(`${s.url}/dashboard/production/timers/${timer.id}`);
    expect(await page.isChecked("input[name=hide_leading_zero_units]")).toBe(true);
    await close();
  }, 120_000);
});
