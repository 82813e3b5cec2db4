import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axe } from "../../http/test/_axe";
import { chromiumAvailable, launchChromium } from "../../http/test/_chromium";
import { startTestServer, type TestServer } from "./_harness";

// Issue 23's "forms in a marketer's words" and "timer list built for finding campaigns", in a
// real Chromium against a real server whose clock is a Thursday evening (the harness's
// setNow): errors name the field as the form does and sit next to it, warnings come before a
// create, times are in the timer's zone, colours take a hex value; the list shows a live
// thumbnail, the end in the timer's zone and the time left, searches as you type and has row
// actions. Under CI=true a missing browser fails the run. Screenshots go to
// artifacts/dashboard/forms-*.png at 1280x800 and 390x844, light and dark.
const SHOTS = join(import.meta.dirname, "../../../artifacts/dashboard");
const PASSWORD = "correct horse battery staple";
/** Thursday 26 November 2026, 20:30 in Berlin. */
const THURSDAY_EVENING = Date.parse("2026-11-26T19:30:00Z");

let s: TestServer;
let browser: Browser;

/** A new account's owner, signed in, in a browser whose own time zone is `timezoneId`. */
async function owner(timezoneId = "Europe/Berlin") {
  const key = await s.key("production");
  const { link } = await s.admin.createUser({
    account: key.account,
    email: `owner-${Math.random().toString(36).slice(2, 10)}@example.com`,
    role: "owner",
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: s.url });
  const page = await context.newPage();
  await page.goto(link.url!);
  await page.fill("#password", PASSWORD);
  await page.fill("#confirm", PASSWORD);
  await page.click("button[type=submit]");
  await page.waitForURL(`${s.url}/dashboard/production`);
  return { page, key, close: () => context.close() };
}

/** The account's timers, through the API. */
async function timersOf(key: Awaited<ReturnType<TestServer["key"]>>) {
  const res = await s.call("GET", "/api/v1/timers", { key });
  expect(res.status, res.text).toBe(200);
  return res.json.data as { id: string; name: string; look: Record<string, unknown> }[];
}

/**
 * Saves the page at 1280x800 and 390x844, light and dark; none may scroll sideways, and axe
 * finds nothing serious or critical in any of them.
 */
async function shoot(page: Page, name: string) {
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [w, h] of [
      [1280, 800],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(wide, `${name} at ${w} px (${scheme})`).toBeLessThanOrEqual(w);
      await page.screenshot({ path: join(SHOTS, `forms-${name}-${w}-${scheme}.png`) });
      expect(await axe(page), `axe on ${name} at ${w} px (${scheme})`).toEqual([]);
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** The text of the problem shown right after the field `id` (its next sibling element). */
const noteAfter = (page: Page, id: string) =>
  page.evaluate((fieldId) => {
    const field = document.getElementById(fieldId)!;
    let next = field.nextElementSibling ?? field.parentElement!.nextElementSibling;
    while (next && !/field-(error|warning)/.test(next.className)) next = next.nextElementSibling;
    return next?.textContent ?? null;
  }, id);

describe.skipIf(!chromiumAvailable)(
  "the builder and the timer list in a marketer's words, in headless Chromium",
  () => {
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

    it("names the refused field as the form does, next to it, and keeps every input", async () => {
      const { page, key, close } = await owner();
      await page.goto(`${s.url}/dashboard/production/timers/new`);
      await page.fill("#name", "Spring launch");
      await page.fill("#timezone", "Europe/Berlin");
      await page.fill("#deadline_local", "");
      await page.fill("#ended_text", "Too late, sorry");
      await page.fill("#separator", "·");
      await page.fill("#background_color", "#7a0019");
      await page.check("input[name=dark_variant]");
      await page.click("text=Create timer");
      await page.waitForLoadState("load");
      const note = await noteAfter(page, "deadline_local");
      expect(note).toBe("Ends at: pick a day and a time.");
      expect(await page.getAttribute("#deadline_local", "aria-invalid")).toBe("true");
      expect(await page.getAttribute("#deadline_local", "aria-describedby")).toContain(
        "deadline_local-problem",
      );
      // The alert at the top names the field too, and leads to it.
      const alert = page.locator("[role=alert]");
      expect(await alert.textContent()).toContain("Check: Ends at");
      expect(await alert.locator("a").getAttribute("href")).toBe("#deadline_local");
      expect(await alert.textContent()).not.toContain("deadline_at");
      // Everything typed is still there.
      expect(await page.inputValue("#name")).toBe("Spring launch");
      expect(await page.inputValue("#timezone")).toBe("Europe/Berlin");
      expect(await page.inputValue("#ended_text")).toBe("Too late, sorry");
      expect(await page.inputValue("#separator")).toBe("·");
      expect(await page.inputValue("#background_color")).toBe("#7a0019");
      expect(await page.isChecked("input[name=dark_variant]")).toBe(true);
      await shoot(page, "builder-refused");
      expect(await timersOf(key)).toHaveLength(0);

      // Editing: a refused change keeps what was typed, not the stored timer.
      await page.fill("#deadline_local", "2026-12-04T23:59");
      await page.click("text=Create timer");
      await page.waitForURL(/notice=created$/);
      await page.fill("#name", "Spring launch, renamed");
      await page.fill("#ended_image_url", "http://example.com/closed.png");
      await page.click("text=Save changes");
      await page.waitForLoadState("load");
      const refused = await noteAfter(page, "ended_image_url");
      expect(refused).toMatch(/^Image instead: /);
      expect(refused).not.toContain("ended.image_url");
      expect(await page.inputValue("#name")).toBe("Spring launch, renamed");
      expect(await page.inputValue("#ended_image_url")).toBe("http://example.com/closed.png");
      await close();
    }, 90_000);

    it("warns before creating a blank name, a past deadline or a rule that has ended", async () => {
      const { page, key, close } = await owner();
      await page.goto(`${s.url}/dashboard/production/timers/new`);
      // A name of spaces: said next to the name, not saved as "Untitled timer".
      await page.fill("#name", "   ");
      await page.click("text=Create timer");
      await page.waitForLoadState("load");
      expect(await noteAfter(page, "name")).toContain("Name: give the timer a name");
      expect(await timersOf(key)).toHaveLength(0);

      // A deadline in the past: the preview says so as it is typed, the create asks first.
      await page.fill("#name", "Last week's sale");
      await page.fill("#timezone", "Europe/Berlin");
      await page.fill("#deadline_local", "2026-11-20T18:00");
      await expect
        .poll(() => page.textContent("#preview-status"), { timeout: 30_000 })
        .toContain("Careful: Ends at: Fri 20 Nov, 18:00 Berlin time (17:00 UTC) is in the past");
      await page.click("text=Create timer");
      await page.waitForLoadState("load");
      const warning = await noteAfter(page, "deadline_local");
      expect(warning).toContain(
        "Ends at: Fri 20 Nov, 18:00 Berlin time (17:00 UTC) is in the past",
      );
      expect(await page.textContent("[role=alert]")).toContain(
        "Check before it is created: Ends at",
      );
      expect(await timersOf(key)).toHaveLength(0);
      await shoot(page, "builder-warned");
      // Meant: created on purpose.
      await page.check("input[name=accept_ended]");
      await page.click("text=Create timer");
      await page.waitForURL(/notice=created$/);
      expect((await timersOf(key)).map((t) => t.name)).toEqual(["Last week's sale"]);

      // A rule whose last day is past.
      await page.goto(`${s.url}/dashboard/production/timers/new`);
      await page.fill("#name", "Old weekly");
      await page.check("input[name=type][value=recurring]");
      await page.fill("#timezone", "Europe/Berlin");
      await page.fill("#starts_on", "2026-11-01");
      await page.check("input[name=rule_end][value=until]");
      await page.fill("#until", "2026-11-15");
      await page.click("text=Create timer");
      await page.waitForLoadState("load");
      expect(await noteAfter(page, "until")).toContain("Last day: the rule has already ended");
      expect(await timersOf(key)).toHaveLength(1);
      await close();
    }, 90_000);

    it("starts in the browser's zone and shows every time in the timer's zone", async () => {
      const { page, key, close } = await owner("America/New_York");
      await page.goto(`${s.url}/dashboard/production/timers/new`);
      await expect.poll(() => page.inputValue("#timezone")).toBe("America/New_York");
      // The preview confirms the end in words, in the zone, with UTC.
      await page.fill("#name", "Advent");
      await page.fill("#timezone", "Europe/Berlin");
      await page.fill("#deadline_local", "2026-12-04T23:59");
      await expect
        .poll(() => page.textContent("#preview-status"), { timeout: 30_000 })
        .toBe("Ends Fri 4 Dec, 23:59 Berlin time (22:59 UTC)");
      await shoot(page, "builder-zone");
      await page.click("text=Create timer");
      await page.waitForURL(/notice=created$/);
      // The timer's page: created at 20:30 Berlin (CET), UTC on hover.
      const created = page.locator("main time").first();
      expect(await created.textContent()).toBe("Thu 26 Nov 2026, 20:30 CET");
      expect(await created.getAttribute("title")).toBe("2026-11-26 19:30 UTC");
      // And when it ends, in its zone, with the time left.
      const ends = await page.textContent("p.ends");
      expect(ends).toContain("Ends: Fri 4 Dec 2026, 23:59 CET");
      expect(ends).toContain("8 d 3 h left");
      await shoot(page, "timer-page");
      // The list: the end in each timer's own zone.
      const made = await s.call("POST", "/api/v1/timers", {
        key,
        body: {
          name: "Tokyo drop",
          type: "fixed",
          timezone: "Asia/Tokyo",
          deadline_at: "2026-12-24T12:00:00Z",
        },
        headers: { "idempotency-key": `forms-${Date.now()}` },
      });
      expect(made.status, made.text).toBe(201);
      await page.goto(`${s.url}/dashboard/production/timers`);
      const row = page.locator("tbody tr", { hasText: "Tokyo drop" });
      expect(await row.locator("time").first().textContent()).toBe("Thu 24 Dec 2026, 21:00 GMT+9");
      expect(await row.locator("time").first().getAttribute("title")).toBe("2026-12-24 12:00 UTC");
      await close();
    }, 90_000);

    it("takes a colour as a hex value as well as from the picker", async () => {
      const { page, key, close } = await owner();
      await page.goto(`${s.url}/dashboard/production/timers/new`);
      await page.fill("#name", "Hex colours");
      // Typed (short form): the picker follows.
      await page.fill("#text_color", "#abc");
      expect(await page.inputValue("#text_color-picker")).toBe("#aabbcc");
      // Picked: the text follows.
      await page.locator("#accent_color-picker").evaluate((el: HTMLInputElement) => {
        el.value = "#336699";
        el.dispatchEvent(new Event("input", { bubbles: true }));
      });
      expect(await page.inputValue("#accent_color")).toBe("#336699");
      // Not a colour: said next to the field at once, and refused by the server alike.
      await page.fill("#background_color", "navy");
      expect(await noteAfter(page, "background_color")).toContain(
        'Background: "navy" is not a colour',
      );
      expect(await page.getAttribute("#background_color", "aria-invalid")).toBe("true");
      await shoot(page, "builder-colour");
      await page.click("text=Create timer");
      await page.waitForLoadState("load");
      expect(await noteAfter(page, "background_color")).toContain(
        'Background: "navy" is not a colour',
      );
      expect(await page.inputValue("#background_color")).toBe("navy");
      expect(await timersOf(key)).toHaveLength(0);
      await page.fill("#background_color", "7A0019");
      await page.click("text=Create timer");
      await page.waitForURL(/notice=created$/);
      const [timer] = await timersOf(key);
      expect(timer!.look).toMatchObject({
        background_color: "#7A0019",
        text_color: "#AABBCC",
        accent_color: "#336699",
      });
      await close();
    }, 90_000);
    it("lists timers with a thumbnail, the end in their zone, time left, search as you type and row actions", async () => {
      const { page, key, close } = await owner();
      const make = async (body: Record<string, unknown>) => {
        const res = await s.call("POST", "/api/v1/timers", {
          key,
          body,
          headers: { "idempotency-key": `list-${Math.random()}` },
        });
        expect(res.status, res.text).toBe(201);
        return res.json.data as { id: string; revision: string; urls: { gif: string } | null };
      };
      const sale = await make({
        name: "Black Friday sale",
        type: "fixed",
        timezone: "Europe/Berlin",
        deadline_at: "2026-11-27T22:59:00Z",
      });
      const published = await s.call("POST", `/api/v1/timers/${sale.id}/publish`, {
        key,
        headers: { "if-match": sale.revision },
      });
      expect(published.status, published.text).toBe(200);
      const gif = published.json.data.urls.gif as string;
      await make({
        name: "Weekday dispatch",
        type: "recurring",
        timezone: "Europe/Berlin",
        recurrence: {
          rrule: "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=17;BYMINUTE=0",
          dtstart: "2026-11-26T17:00",
        },
      });
      await make({ name: "Welcome series", type: "duration", duration_seconds: 86_400 });

      await page.goto(`${s.url}/dashboard/production/timers`);
      const row = (name: string) => page.locator("tbody tr", { hasText: name });
      // The end in the timer's zone with its abbreviation, UTC on hover, and the time left.
      const saleRow = row("Black Friday sale");
      const end = saleRow.locator("time");
      expect(await end.textContent()).toBe("Fri 27 Nov 2026, 23:59 CET");
      expect(await end.getAttribute("title")).toBe("2026-11-27 22:59 UTC");
      expect(await saleRow.textContent()).toContain("1 d 3 h left");
      expect(await saleRow.textContent()).toContain("published");
      const weekday = row("Weekday dispatch");
      expect(await weekday.textContent()).toContain("next: Fri 27 Nov 2026, 17:00 CET");
      expect(await weekday.textContent()).toContain("20 h 30 min left");
      expect(await row("Welcome series").textContent()).toContain("Each viewer gets 1 d");
      // A thumbnail per row, drawn (a draft's too), decoded by the browser.
      for (const name of ["Black Friday sale", "Weekday dispatch", "Welcome series"]) {
        const width = await row(name)
          .locator("td.thumb img")
          .evaluate(async (img: HTMLImageElement) => {
            await img.decode();
            return img.naturalWidth;
          });
        expect(width, name).toBe(240);
      }
      await shoot(page, "timer-list");

      // Search as you type: the rows follow the keys, the page is not reloaded.
      await page.evaluate(() => {
        (window as unknown as { stayed: boolean }).stayed = true;
      });
      await page.locator("#f-name").pressSequentially("black", { delay: 30 });
      await expect.poll(() => page.locator("tbody tr").count(), { timeout: 10_000 }).toBe(1);
      expect(await page.locator("tbody tr").textContent()).toContain("Black Friday sale");
      expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(
        true,
      );
      expect(new URL(page.url()).searchParams.get("name")).toBe("black");
      await page.locator("#f-name").fill("");
      await expect.poll(() => page.locator("tbody tr").count(), { timeout: 10_000 }).toBe(3);

      // Row actions: copy the email snippet, duplicate, open.
      await row("Black Friday sale").locator("button[data-copy]").click();
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      // The share panel's first snippet at its defaults: 600 px, alt text in words.
      expect(copied).toContain(`<img src="${gif}?width=600"`);
      expect(copied).toMatch(/alt="Countdown to [^"]+ time"/);
      expect(await row("Welcome series").locator("button[data-copy]").count()).toBe(0);
      await row("Weekday dispatch").locator("text=Duplicate").click();
      await page.waitForURL(/notice=duplicated$/);
      expect(await timersOf(key)).toHaveLength(4);
      await page.goto(`${s.url}/dashboard/production/timers`);
      await row("Black Friday sale").locator("text=Open").click();
      await page.waitForURL(`${s.url}/dashboard/production/timers/${sale.id}`);
      await close();
    }, 120_000);
  },
);
