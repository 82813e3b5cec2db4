import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axe } from "../../http/test/_axe";
import { chromiumAvailable, launchChromium } from "../../http/test/_chromium";
import { LOOK_PRESETS } from "../src/look-presets";
import { pngSize } from "../src/preview";
import { signedInUser } from "./_dashboard";
import { newKey, startTestServer, type TestServer } from "./_harness";
import { noteAfter, signedInPage } from "./_signed-in-page";

// Issue 39's gallery and builder, against a real server over loopback with a real SQLite
// file, in a real Chromium: the ready looks drawn by the renderer, a look chosen in the
// gallery becoming a timer whose API look is that look, every option of the builder (style,
// background colour, gradient or uploaded image, heading, line below and button with font,
// size and colour, an uploaded font) drawn by the live preview and kept by the API both ways,
// saved looks that keep the style, and problems in the form's words. Under CI=true a missing
// browser fails the run. Screenshots: artifacts/dashboard/gallery-*.png, and the pictures of
// docs/dashboard.md (docs/images/dashboard-gallery-*.png, dashboard-builder-look-*.png).
const SHOTS = join(import.meta.dirname, "../../../artifacts/dashboard");
const DOCS = join(import.meta.dirname, "../../../docs/images");
const FONT = new URL("../../render/test/fixtures/press-start-2p.woff", import.meta.url);
const PHOTO = new URL("../../http/test/fixtures/tiny.jpg", import.meta.url);
/** Thursday 26 November 2026, 20:30 in Berlin. */
const THURSDAY_EVENING = Date.parse("2026-11-26T19:30:00Z");

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer({}, { baseUrlIsServer: true });
  s.setNow(THURSDAY_EVENING);
}, 60_000);
afterAll(() => s?.close());

const PNG_SIGNATURE = "89504e470d0a1a0a";

describe("the gallery over HTTP", () => {
  it("draws every ready look as a real PNG, once, and no look that is not one", async () => {
    const { client } = await signedInUser(s, "member");
    const gallery = await client.get("/dashboard/production/looks");
    expect(gallery.status).toBe(200);
    const drawn = new Set<string>();
    for (const preset of LOOK_PRESETS) {
      expect(gallery.body_text).toContain(`/dashboard/production/looks/${preset.id}.png`);
      expect(gallery.body_text).toContain(`/dashboard/production/timers/new?look=${preset.id}`);
      const res = await client.get(`/dashboard/production/looks/${preset.id}.png`);
      expect(res.status, preset.id).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/png");
      const again = await fetch(`${s.url}/dashboard/production/looks/${preset.id}.png`, {
        headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
      });
      const bytes = new Uint8Array(await again.arrayBuffer());
      expect(Buffer.from(bytes.subarray(0, 8)).toString("hex")).toBe(PNG_SIGNATURE);
      expect(pngSize(bytes).width).toBe(600);
      drawn.add(Buffer.from(bytes).toString("base64"));
    }
    // Every look is a picture of its own.
    expect(drawn.size).toBe(LOOK_PRESETS.length);
    expect((await client.get("/dashboard/production/looks/nope.png")).status).toBe(404);
    // Signed out, nothing is drawn.
    const anonymous = await fetch(`${s.url}/dashboard/production/looks/ink.png`, {
      redirect: "manual",
    });
    expect(anonymous.status).not.toBe(200);
  }, 120_000);

  it("says a builder's problems with the new fields in the form's words, next to the field", async () => {
    const { client } = await signedInUser(s, "owner");
    await client.get("/dashboard/production/timers/new");
    const base = {
      name: "Words",
      type: "fixed",
      timezone: "Europe/Berlin",
      deadline_local: "2026-12-04T23:59",
      theme: "light",
      background_color: "#ffffff",
      text_color: "#111827",
      accent_color: "#2563eb",
      font: "sans",
      font_size: "48",
      units: ["days", "hours", "minutes", "seconds"],
      style: "rounded",
      separator: ":",
      locale: "en",
      ended_text: "Ended",
      idempotency_key: newKey(),
    };
    const refused = async (extra: Record<string, string>) => {
      const res = await client.post("/dashboard/production/timers", { ...base, ...extra });
      // The form's own checks answer 422, the API's validation 400: both show the form again.
      expect([400, 422], res.body_text.slice(0, 300)).toContain(res.status);
      return [
        ...res.body_text.matchAll(/<p class="field-error" id="([\w-]+)-problem">(.*?)<\/p>/g),
      ].map(([, id, text]) => [id, htmlText(text!.replace(/<[^>]+>/g, ""))]);
    };
    expect(await refused({ heading_text: "Ends in", heading_color: "blue" })).toEqual([
      [
        "heading_color",
        'Heading colour: "blue" is not a colour: type it as #RRGGBB (like #1d4ed8) or pick one.',
      ],
    ]);
    expect(await refused({ transparent: "on", background_kind: "gradient" })).toEqual([
      [
        "background_kind",
        "Behind the countdown: a transparent image draws nothing behind the countdown: choose “The background colour” or untick “Transparent background”.",
      ],
    ]);
    expect(await refused({ background_kind: "image" })).toEqual([
      [
        "background_image",
        "Background image: pick one of your uploaded images, or upload one under Fonts & images first.",
      ],
    ]);
    // The API's limits, named by the field's label.
    const long = await refused({ heading_text: "H".repeat(61) });
    expect(long).toHaveLength(1);
    expect(long[0]![0]).toBe("heading_text");
    expect(long[0]![1]).toMatch(/^Heading: .*60/);
    const size = await refused({ button_label: "Go", button_size: "500" });
    expect(size[0]![0]).toBe("button_size");
    expect(size[0]![1]).toMatch(/^Button size: .*64/);
    const style = await refused({ style: "wavy" });
    expect(style[0]![0]).toBe("style");
    expect(style[0]![1]).toMatch(/^Style: /);
  }, 120_000);
});

describe.skipIf(!chromiumAvailable)("the gallery and the builder's look, in Chromium", () => {
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    mkdirSync(DOCS, { recursive: true });
    browser = await launchChromium();
  }, 60_000);
  afterAll(() => browser?.close());

  /**
   * Saves the page at 1280x800 and 390x844, light and dark (whole pages for `docs`); none may
   * scroll sideways, and axe finds nothing serious or critical in any of them.
   */
  async function shoot(page: Page, name: string, docs?: string) {
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [w, h] of [
        [1280, 800],
        [390, 844],
      ] as const) {
        await page.setViewportSize({ width: w, height: h });
        await allDrawn(page);
        const wide = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(wide, `${name} at ${w} px (${scheme})`).toBeLessThanOrEqual(w);
        const suffix = `${w}${scheme === "dark" ? "-dark" : ""}`;
        await page.screenshot({
          path: join(SHOTS, `gallery-${name}-${suffix}.png`),
          fullPage: true,
        });
        if (docs) await page.screenshot({ path: join(DOCS, `${docs}-${suffix}.png`) });
        expect(await axe(page), `axe on ${name} at ${w} px (${scheme})`).toEqual([]);
      }
    }
    await page.emulateMedia({ colorScheme: "light" });
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  /** Waits until every picture of the page is drawn (none broken, none still loading). */
  async function allDrawn(page: Page) {
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll<HTMLImageElement>("main img:not([hidden])")].every(
          (i) => i.complete && i.naturalWidth > 0,
        ),
      undefined,
      { timeout: 60_000 },
    );
  }

  /** The preview's state after a change: drawn again (a new ticket), or the problem it says. */
  async function previewAfter(page: Page, change: () => Promise<void>): Promise<string> {
    // A problem after a problem keeps the state "error": what the preview says tells them apart.
    const state = async () =>
      `${await page.getAttribute("form[data-preview]", "data-preview-state")} ${await page.textContent("#preview-status")}`;
    const before = await state();
    await change();
    await expect.poll(state, { timeout: 90_000 }).not.toBe(before);
    const [ticket, ...said] = (await state()).split(" ");
    return ticket === "error" ? said.join(" ") : "ok";
  }

  it("chooses a ready look in the gallery, creates a timer, and the API has the look", async () => {
    const { page, key, close } = await signedInPage(s, browser);
    await page.click("nav.main >> text=Looks", { noWaitAfter: true });
    // The pictures are drawn on the first visit: the page is there before they are.
    await page.waitForURL(/\/production\/looks$/, { waitUntil: "domcontentloaded" });
    const cards = page.locator("ul[aria-labelledby=ready-looks] > li");
    expect(await cards.count()).toBeGreaterThanOrEqual(12);
    await allDrawn(page);
    expect(
      await page.$$eval("ul.looks img", (imgs) =>
        imgs.every((i) => (i as HTMLImageElement).naturalWidth === 600),
      ),
    ).toBe(true);
    await shoot(page, "looks", "dashboard-gallery");

    await page.click("ul.looks a:has-text('Launch night')");
    await page.waitForURL(/\/timers\/new\?look=launch$/);
    expect(await page.textContent(".start-look")).toContain(
      "The look of Launch night is filled in",
    );
    expect(await page.inputValue("#style")).toBe("circles");
    expect(await page.inputValue("#background_kind")).toBe("gradient");
    expect(await page.inputValue("#gradient_from")).toBe("#312e81");
    expect(await page.inputValue("#gradient_angle")).toBe("135");
    expect(await page.inputValue("#heading_text")).toBe("Launching in");
    expect(await page.inputValue("#button_label")).toBe("Get notified");
    // The image list is not offered with a gradient (the script shows the chosen kind's fields).
    expect(await page.isHidden("#background_image")).toBe(true);
    await expect
      .poll(() => page.getAttribute("form[data-preview]", "data-preview-state"), {
        timeout: 30_000,
      })
      .toMatch(/^\d+$/);
    await page.fill("#name", "Spring launch");
    await page.fill("#deadline_local", "2026-12-04T23:59");
    await shoot(page, "builder-launch", "dashboard-builder-look");
    await page.click("text=Create timer");
    await page.waitForURL(/notice=created$/);
    const listed = await s.call("GET", "/api/v1/timers", { key });
    const look = listed.json.data[0].look;
    expect(look).toMatchObject({
      style: "circles",
      theme: "dark",
      background_color: "#1E1B4B",
      accent_color: "#A78BFA",
      background: { type: "gradient", from: "#312E81", to: "#9333EA", angle: 135 },
      heading: { text: "Launching in", font: null, color: null },
      subheading: null,
      button: { label: "Get notified", font: null, color: null, background_color: null },
    });
    await close();
  }, 300_000);

  it("draws and keeps every option, both ways, and saved looks keep the style", async () => {
    const { page, key, close } = await signedInPage(s, browser);
    // An uploaded font, and an uploaded picture (a JPEG photo).
    const font = await s.call("POST", "/api/v1/assets", {
      key,
      body: {
        kind: "font",
        name: "Press Start 2P.woff",
        data: readFileSync(FONT).toString("base64"),
      },
    });
    expect(font.status, font.text).toBe(201);
    const image = await s.call("POST", "/api/v1/assets", {
      key,
      body: { kind: "image", name: "tiny.jpg", data: readFileSync(PHOTO).toString("base64") },
    });
    expect(image.status, image.text).toBe(201);
    const fontId = font.json.data.id as string;
    const imageId = image.json.data.id as string;

    await page.goto(`${s.url}/dashboard/production/timers/new`);
    await page.fill("#name", "Every option");
    await page.fill("#deadline_local", "2026-12-04T23:59");
    // Every style is drawn by the preview.
    for (const style of [
      "rounded",
      "plain",
      "minimal",
      "boxes",
      "outlined",
      "flip",
      "circles",
      "bar",
    ]) {
      expect(
        await previewAfter(page, () => page.selectOption("#style", style).then(() => {})),
        style,
      ).toBe("ok");
    }
    // Backgrounds: a gradient, then an uploaded image picked from the account's.
    expect(await page.isHidden("#gradient_from")).toBe(true);
    expect(
      await previewAfter(page, async () => {
        await page.selectOption("#background_kind", "gradient");
      }),
    ).toBe("ok");
    await page.fill("#gradient_from", "#0f766e");
    expect(await previewAfter(page, () => page.fill("#gradient_angle", "90"))).toBe("ok");
    expect(await page.isHidden("#background_image")).toBe(true);
    await page.selectOption("#background_kind", "image");
    expect(
      await page.$$eval("#background_image option", (os) => os.map((o) => o.textContent)),
    ).toEqual(["Choose an image", "tiny.jpg (64 × 48)"]);
    expect(
      await previewAfter(page, () =>
        page.selectOption("#background_image", imageId).then(() => {}),
      ),
    ).toBe("ok");
    // The uploaded font, and the words with their fonts, sizes and colours.
    expect(
      await previewAfter(page, () => page.selectOption("#font", `asset:${fontId}`).then(() => {})),
    ).toBe("ok");
    await page.fill("#heading_text", "Sale ends in");
    await page.selectOption("#heading_font", "serif");
    await page.fill("#heading_size", "30");
    expect(await previewAfter(page, () => page.fill("#heading_color", "#fde68a"))).toBe("ok");
    await page.fill("#subheading_text", "Free shipping on every order");
    await page.selectOption("#subheading_font", "mono");
    await page.fill("#subheading_size", "16");
    expect(await previewAfter(page, () => page.fill("#subheading_color", "#e0f2fe"))).toBe("ok");
    await page.fill("#button_label", "Shop now");
    await page.selectOption("#button_font", "sans");
    await page.fill("#button_size", "20");
    await page.fill("#button_color", "#111827");
    expect(await previewAfter(page, () => page.fill("#button_background", "#fbbf24"))).toBe("ok");
    // A colour that is none is said as it is typed; the preview says the API's problem.
    expect(await previewAfter(page, () => page.fill("#heading_color", "blue"))).toBe(
      'Heading colour: "blue" is not a colour: type it as #RRGGBB (like #1d4ed8) or pick one.',
    );
    expect(await noteAfter(page, "heading_color")).toContain(
      'Heading colour: "blue" is not a colour',
    );
    expect(await previewAfter(page, () => page.fill("#heading_color", "#fde68a"))).toBe("ok");
    expect(await previewAfter(page, () => page.fill("#heading_text", "H".repeat(61)))).toMatch(
      /^Heading: .*60/,
    );
    expect(await previewAfter(page, () => page.fill("#heading_text", "Sale ends in"))).toBe("ok");
    await page.waitForTimeout(300);
    await shoot(page, "builder-every-option", "dashboard-builder-words");
    await page.click("text=Create timer");
    await page.waitForURL(/notice=created$/);
    const id = /timers\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    const stored = (await s.call("GET", `/api/v1/timers/${id}`, { key })).json.data.look;
    const every = {
      style: "bar",
      font_asset_id: fontId,
      background: { type: "image", asset_id: imageId },
      heading: { text: "Sale ends in", font: "serif", size: 30, color: "#FDE68A" },
      subheading: {
        text: "Free shipping on every order",
        font: "mono",
        size: 16,
        color: "#E0F2FE",
      },
      button: {
        label: "Shop now",
        font: "sans",
        size: 20,
        color: "#111827",
        background_color: "#FBBF24",
      },
    };
    expect(stored).toMatchObject(every);

    // Back into the edit form as stored; switched to a gradient and saved.
    expect(await page.inputValue("#style")).toBe("bar");
    expect(await page.inputValue("#background_kind")).toBe("image");
    expect(await page.inputValue("#background_image")).toBe(imageId);
    expect(await page.inputValue("#font")).toBe(`asset:${fontId}`);
    expect(await page.inputValue("#heading_font")).toBe("serif");
    expect(await page.inputValue("#heading_size")).toBe("30");
    expect(await page.inputValue("#heading_color")).toBe("#fde68a");
    expect(await page.inputValue("#subheading_text")).toBe("Free shipping on every order");
    expect(await page.inputValue("#button_background")).toBe("#fbbf24");
    await page.selectOption("#background_kind", "gradient");
    await page.fill("#gradient_from", "#0f766e");
    await page.fill("#gradient_to", "#1e3a8a");
    await page.fill("#gradient_angle", "45");
    await page.click("text=Save changes");
    await page.waitForURL(/notice=saved$/);
    const edited = (await s.call("GET", `/api/v1/timers/${id}`, { key })).json.data.look;
    expect(edited).toMatchObject({
      ...every,
      background: { type: "gradient", from: "#0F766E", to: "#1E3A8A", angle: 45 },
    });

    // Saved under a name: the gallery shows it, and choosing it keeps the style and words.
    await page.fill("#look_name", "Brand kit");
    await page.click("text=Save look");
    await page.waitForURL(/notice=look-saved$/);
    // The gallery's pictures may still be drawing: the links are there before they are.
    await page.goto(`${s.url}/dashboard/production/looks`, { waitUntil: "domcontentloaded" });
    await page.click("ul[aria-labelledby=saved-looks] a:has-text('Brand kit')");
    await page.waitForURL(/\/timers\/new\?saved=/);
    expect(await page.inputValue("#style")).toBe("bar");
    expect(await page.inputValue("#background_kind")).toBe("gradient");
    expect(await page.inputValue("#heading_text")).toBe("Sale ends in");
    expect(await page.inputValue("#font")).toBe(`asset:${fontId}`);
    await page.fill("#name", "From the kit");
    await page.click("text=Create timer");
    await page.waitForURL(/notice=created$/);
    const kitId = /timers\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    const kit = (await s.call("GET", `/api/v1/timers/${kitId}`, { key })).json.data.look;
    expect(kit).toMatchObject({
      style: "bar",
      heading: every.heading,
      button: every.button,
      background: edited.background,
    });

    // A ready look chosen for an existing timer fills its edit form; saving keeps it.
    await page.click("text=Choose a look from the gallery", { noWaitAfter: true });
    await page.waitForURL(/\/looks\?for=/, { waitUntil: "domcontentloaded" });
    expect(await page.textContent("main")).toContain("Choosing a look for From the kit");
    await page.click("ul.looks a:has-text('Flip clock')");
    await page.waitForURL(/look=flip#edit$/);
    expect(await page.inputValue("#style")).toBe("flip");
    expect(await page.inputValue("#heading_text")).toBe("Doors open in");
    expect(await page.inputValue("#button_label")).toBe("");
    await page.click("text=Save changes");
    await page.waitForURL(/notice=saved$/);
    const flipped = (await s.call("GET", `/api/v1/timers/${kitId}`, { key })).json.data.look;
    expect(flipped).toMatchObject({ style: "flip", button: null, font_asset_id: null });
    await close();
  }, 400_000);
});

/** HTML text as read: the escaped characters back. */
function htmlText(text: string): string {
  return text
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");
}
