import { renderHostedPage } from "@tminus/render";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable as available, launchChromium } from "./_chromium";

// A real browser lays the page out (see _chromium.ts).

const NOW = Date.UTC(2026, 10, 27, 8, 0, 0);
let browser: Browser;

describe.skipIf(!available)("user text direction on the hosted page, in Chromium", () => {
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  /** Left edge, in CSS px, of the first occurrence of `char` inside the element. */
  async function leftOf(html: string, selector: string, chars: string[]): Promise<number[]> {
    const page = await browser.newPage({ javaScriptEnabled: false });
    await page.setContent(html);
    const lefts = await page.$eval(
      selector,
      (el, wanted) => {
        const text = el.firstChild as Text;
        return wanted.map((ch) => {
          const range = document.createRange();
          const at = text.data.indexOf(ch);
          range.setStart(text, at);
          range.setEnd(text, at + ch.length);
          return range.getBoundingClientRect().left;
        });
      },
      chars,
    );
    await page.close();
    return lefts;
  }

  it("lays a right-to-left name out right to left, its punctuation at its left end", async () => {
    const html = renderHostedPage({
      name: "מבצע!",
      now: NOW,
      status: { remaining: { total_seconds: 0 }, state: "ended", target_at: NOW },
      ended: { text: "נגמר!" },
    });
    // Inherited left-to-right, "!" would trail on the right of the Hebrew word.
    const [bang, first] = await leftOf(html, "h1.tm-name", ["!", "מ"]);
    expect(bang!).toBeLessThan(first!);
    const [endBang, endFirst] = await leftOf(html, ".tm-ended-text", ["!", "נ"]);
    expect(endBang!).toBeLessThan(endFirst!);
  });
});
