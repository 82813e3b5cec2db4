import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, launchChromium } from "../../http/test/_chromium";
import { startTestServer, type TestServer } from "./_harness";

// The dashboard with the keyboard only (Tab, Shift+Tab, Enter, Space, arrows; no clicks), and
// the builder's ended look, rule ends and evergreen cap, in Debian's chromium. Under CI=true a
// missing browser fails the run.
const PASSWORD = "correct horse battery staple";

let s: TestServer;
let browser: Browser;

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.on("dialog", (d) => d.accept());
  return page;
}

/** What has the focus, and whether a focus indicator is drawn around it. */
async function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) >= 2;
    const shadow = style.boxShadow !== "none";
    const box = el.getBoundingClientRect();
    return {
      tag: el.tagName.toLowerCase(),
      text: (el.textContent ?? "").trim().slice(0, 40) || el.getAttribute("name") || el.id,
      // The indicator actually drawn: an outline or a ring on the focused element.
      visibleFocus: el.matches(":focus, :focus-within") && (outline || shadow),
      why: `${el.matches(":focus, :focus-within")} ${style.outlineStyle} ${style.outlineWidth} ${style.boxShadow}`,
      onScreen: box.width > 0 && box.height > 0 && box.right > 0 && box.left < innerWidth,
    };
  });
}

/**
 * Presses Tab (or Shift+Tab) until the focused element matches `selector`, checking on the
 * way that every stop shows a visible focus indicator. Fails when it is not reached.
 */
async function tabTo(page: Page, selector: string, opts: { back?: boolean; max?: number } = {}) {
  const stops: string[] = [];
  for (let i = 0; i < (opts.max ?? 120); i++) {
    await page.keyboard.press(opts.back ? "Shift+Tab" : "Tab");
    const now = await focused(page);
    if (!now) continue;
    stops.push(`${now.tag} ${now.text}`);
    expect(now.visibleFocus, `focus is visible on ${now.tag} "${now.text}" (${now.why})`).toBe(
      true,
    );
    expect(now.onScreen, `focused ${now.tag} "${now.text}" is on screen`).toBe(true);
    if (await page.evaluate((sel) => document.activeElement?.matches(sel) ?? false, selector)) {
      return stops;
    }
  }
  throw new Error(
    `${selector} not reached by ${opts.back ? "Shift+Tab" : "Tab"}: ${stops.join(" | ")}`,
  );
}

describe.skipIf(!chromiumAvailable)(
  "dashboard with the keyboard only, and the builder's ended look",
  () => {
    beforeAll(async () => {
      s = await startTestServer({}, { baseUrlIsServer: true });
      browser = await launchChromium();
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await s?.close();
    });

    it("signs in, reaches the nav, creates and revokes a key, builds a timer and invites and removes a member", async () => {
      const bootstrap = await s.key("production");
      const { link } = await s.admin.createUser({
        account: bootstrap.account,
        email: "keys@example.com",
        role: "owner",
      });
      const page = await newPage();
      const kb = page.keyboard;

      // Set the password and sign in.
      await page.goto(link.url!);
      await tabTo(page, "#password");
      await kb.type(PASSWORD);
      await tabTo(page, "#confirm");
      await kb.type(PASSWORD);
      await kb.press("Enter");
      await page.waitForURL(`${s.url}/dashboard/production`);

      // The first Tab stop is the skip link, shown when focused; it moves the focus to main.
      await kb.press("Tab");
      expect(await focused(page)).toMatchObject({ text: "Skip to content", visibleFocus: true });
      await kb.press("Enter");
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("content");
      // The navigation is before main: Shift+Tab reaches it.
      const order = await tabTo(page, "nav.main a[href$='/keys']", { back: true });
      expect(order.join(" | ")).toMatch(/Production.*Sandbox|Sandbox.*Production/);
      await kb.press("Enter");
      await page.waitForURL(/\/production\/keys$/);

      // Create a key: name, one scope with Space, submit with Enter.
      await tabTo(page, "#key-name");
      await kb.type("Keyboard key");
      await tabTo(page, "input[name=scope][value='timers:read']");
      await kb.press("Space");
      await tabTo(page, "form[action$='/keys'] button[type=submit]");
      await kb.press("Enter");
      await page.waitForSelector("#secret");
      const secret = await page.inputValue("#secret");
      expect(secret).toMatch(/^svc_live_/);
      await tabTo(page, "button[data-copy=secret]");

      // Revoke it: the confirmation box with Space, the button with Enter, the dialog accepted.
      await tabTo(page, "form[action$='/revoke'] input[name=confirm]");
      await kb.press("Space");
      await tabTo(page, "form[action$='/revoke'] button");
      await kb.press("Enter");
      await page.waitForURL(/notice=revoked$/);
      expect((await s.call("GET", "/api/v1/usage", { key: secret })).status).toBe(401);

      // The builder: open it, change fields, see the preview follow, create.
      await tabTo(page, "nav.main a[href$='/timers']", { back: true });
      await kb.press("Enter");
      await page.waitForURL(/\/production\/timers$/);
      await tabTo(page, "a.button[href$='/timers/new']");
      await kb.press("Enter");
      await page.waitForURL(/\/timers\/new$/);
      await tabTo(page, "#name");
      await kb.type("Keyboard timer");
      await tabTo(page, "input[name=type]:checked");
      // Arrow keys move through a radio group: fixed -> evergreen (duration).
      await kb.press("ArrowDown");
      expect(await page.inputValue("input[name=type]:checked")).toBe("duration");
      const status = page.locator("#preview-status");
      await expect.poll(() => status.textContent(), { timeout: 30_000 }).toMatch(/^Ends /);
      const before = await page.getAttribute("#preview-image", "src");
      await tabTo(page, "#duration_hours");
      await kb.press("Control+A");
      await kb.type("5");
      await expect
        .poll(() => page.getAttribute("#preview-image", "src"), { timeout: 30_000 })
        .not.toBe(before);
      await tabTo(page, "input[name=preview_ended]");
      await kb.press("Space");
      await expect
        .poll(() => status.textContent(), { timeout: 30_000 })
        .toMatch(/^Showing the ended look/);
      await tabTo(page, "form[data-preview] button[type=submit]");
      await kb.press("Enter");
      await page.waitForURL(/\/timers\/[0-9a-f-]{36}\?notice=created$/);
      const timerId = /timers\/([0-9a-f-]{36})/.exec(page.url())![1]!;
      const key = await s.key("production", bootstrap.account);
      const made = await s.call("GET", `/api/v1/timers/${timerId}`, { key });
      expect(made.json.data).toMatchObject({
        name: "Keyboard timer",
        duration_seconds: 86_400 + 5 * 3600,
      });

      // Members: invite with Enter in the email field, then remove with the confirmation.
      await tabTo(page, "nav.main a[href$='/members']", { back: true });
      await kb.press("Enter");
      await page.waitForURL(/\/members$/);
      await tabTo(page, "#invite-email");
      await kb.type("helper@example.com");
      await kb.press("Enter");
      await page.waitForSelector("#secret");
      const helper = (await s.admin.listUsers(bootstrap.account)).find(
        (u) => u.email === "helper@example.com",
      )!;
      const remove = `form[action$='/members/${helper.id}/remove']`;
      await tabTo(page, `#role-${helper.id}`);
      await tabTo(page, `${remove} input[name=confirm]`);
      await kb.press("Space");
      await tabTo(page, `${remove} button`);
      await kb.press("Enter");
      await page.waitForURL(/notice=removed$/);
      expect((await s.admin.listUsers(bootstrap.account)).map((u) => u.email)).toEqual([
        "keys@example.com",
      ]);

      // Sign out from the footer.
      await tabTo(page, "footer button");
      await kb.press("Enter");
      await page.waitForURL(/sign-in/);
      await page.context().close();
    }, 180_000);

    it("builds a rule that ends, and an evergreen cap; an edit keeps what the builder does not show", async () => {
      const key = await s.key("production");
      const { link } = await s.admin.createUser({
        account: key.account,
        email: "builder@example.com",
        role: "owner",
      });
      const page = await newPage();
      await page.goto(link.url!);
      await page.fill("#password", PASSWORD);
      await page.fill("#confirm", PASSWORD);
      await page.press("#confirm", "Enter");
      await page.waitForURL(`${s.url}/dashboard/production`);

      // A recurring rule with COUNT, shown in words and in the stored rule.
      await page.goto(`${s.url}/dashboard/production/timers/new`);
      await page.fill("#name", "Three drops");
      await page.check("input[name=type][value=recurring]");
      await page.fill("#timezone", "Europe/Berlin");
      await page.check("input[name=rule_end][value=count]");
      await page.fill("#count", "3");
      const status = page.locator("#preview-status");
      await expect
        .poll(() => status.textContent(), { timeout: 30_000 })
        .toContain("at 17:00 (Europe/Berlin), 3 times");
      await page.fill("#ended_text", "Next drop soon");
      await page.fill("#ended_image_url", "https://img.example.com/over.png");
      await page.click("text=Create timer");
      await page.waitForURL(/notice=created$/);
      const id = /timers\/([0-9a-f-]{36})/.exec(page.url())![1]!;
      const made = (await s.call("GET", `/api/v1/timers/${id}`, { key })).json.data;
      expect(made.recurrence.rrule).toMatch(/;COUNT=3$/);
      expect(made.ended).toMatchObject({
        text: "Next drop soon",
        image_url: "https://img.example.com/over.png",
      });
      // The edit form reads the rule's end back.
      expect(await page.isChecked("input[name=rule_end][value=count]")).toBe(true);

      // Things only the API sets (exdates, a matte colour, the dark variant's own colours, the
      // link before the start, which the builder shows for personalized timers only) and the
      // links it shows: an edit of the name in the builder keeps every one of them.
      const patched = await s.call("PATCH", `/api/v1/timers/${id}`, {
        key,
        headers: { "if-match": made.revision },
        body: {
          recurrence: { ...made.recurrence, exdates: ["2031-01-03T17:00"] },
          look: {
            ...made.look,
            matte_color: "#123456",
            dark: { background_color: "#000011", text_color: "#EEEEEE" },
            click_url: "https://shop.example.com/drop",
            not_started_click_url: "https://shop.example.com/soon",
          },
          ended: {
            ...made.ended,
            redirect_url: "https://shop.example.com/next",
            click_url: "https://shop.example.com/missed",
          },
        },
      });
      expect(patched.status, JSON.stringify(patched.json)).toBe(200);
      const before = (await s.call("GET", `/api/v1/timers/${id}`, { key })).json.data;
      await page.goto(`${s.url}/dashboard/production/timers/${id}`);
      await page.fill("#name", "Three drops, renamed");
      await page.click("text=Save changes");
      await page.waitForURL(/notice=saved$/);
      const after = (await s.call("GET", `/api/v1/timers/${id}`, { key })).json.data;
      expect(after.name).toBe("Three drops, renamed");
      expect(after.recurrence).toEqual(before.recurrence);
      expect(after.look).toEqual(before.look);
      expect(after.ended).toEqual(before.ended);

      // Clearing the ended image in the builder removes it (the builder shows that field).
      await page.fill("#ended_image_url", "");
      await page.click("text=Save changes");
      await page.waitForURL(/notice=saved$/);
      const cleared = (await s.call("GET", `/api/v1/timers/${id}`, { key })).json.data;
      expect(cleared.ended.image_url).toBeUndefined();
      expect(cleared.ended.redirect_url).toBe("https://shop.example.com/next");

      // An evergreen timer capped by "never past", stored as an instant in the timer's zone.
      await page.goto(`${s.url}/dashboard/production/timers/new`);
      await page.fill("#name", "Capped");
      await page.check("input[name=type][value=duration]");
      await page.fill("#timezone", "Europe/Berlin");
      await page.fill("#not_after_local", "2031-06-30T23:59");
      await page.click("text=Create timer");
      await page.waitForURL(/notice=created$/);
      const capped = /timers\/([0-9a-f-]{36})/.exec(page.url())![1]!;
      const cappedData = (await s.call("GET", `/api/v1/timers/${capped}`, { key })).json.data;
      expect(Date.parse(cappedData.not_after)).toBe(Date.parse("2031-06-30T23:59:00+02:00"));
      expect(await page.inputValue("#not_after_local")).toBe("2031-06-30T23:59");
      await page.context().close();
    }, 180_000);
  },
);
