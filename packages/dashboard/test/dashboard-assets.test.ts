// Fonts and images in the dashboard: the upload form (multipart, CSRF like every form), the
// list and delete, the builder's font list and its preview with the upload; then in Chromium,
// screenshots at 390 and 1280 px, light and dark, with axe.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axe } from "../../http/test/_axe";
import { type DashboardClient, signedInUser } from "./_dashboard";
import { startTestServer, type TestServer } from "./_harness";

const FONT_PATH = new URL("../../render/test/fixtures/press-start-2p.woff", import.meta.url);
const WOFF = readFileSync(FONT_PATH);
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const available = existsSync(CHROMIUM);
if (!available && process.env.CI)
  throw new Error(`CI needs Chromium at ${CHROMIUM} (.ci/run installs it)`);
const SHOTS = join(import.meta.dirname, "../../../artifacts/dashboard");

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({}, { baseUrlIsServer: true });
});
afterAll(() => s.close());

/** Posts the upload form as a browser does: multipart, with the page's CSRF token. */
async function uploadForm(
  client: DashboardClient,
  file: { name: string; data: Uint8Array; type: string } | null,
  kind = "font",
  csrf: string | null = client.csrf,
) {
  const body = new FormData();
  if (csrf !== null) body.set("_csrf", csrf);
  body.set("kind", kind);
  if (file) body.set("file", new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);
  const res = await fetch(`${s.url}/dashboard/production/assets`, {
    method: "POST",
    headers: {
      cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
      origin: s.url,
    },
    body,
    redirect: "manual",
  });
  return Object.assign(res, { body_text: await res.text() });
}

describe("dashboard: fonts and images", () => {
  it("uploads with a multipart form, lists, offers the font in the builder and deletes", async () => {
    const { client } = await signedInUser(s, "member");
    const empty = await client.get("/dashboard/production/assets");
    expect(empty.status).toBe(200);
    expect(empty.body_text).toContain("No fonts or images yet");
    // Without the form's token nothing is stored.
    const forged = await uploadForm(
      client,
      { name: "x.woff", data: WOFF, type: "font/woff" },
      "font",
      null,
    );
    expect(forged.status).toBe(403);
    // A file that is not what it says: the API's message, and nothing stored.
    const wrong = await uploadForm(
      client,
      { name: "photo.png", data: WOFF, type: "image/png" },
      "image",
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body_text).toContain("Not uploaded: data: the file is a font, not an image");
    const done = await uploadForm(client, {
      name: "Press Start 2P.woff",
      data: WOFF,
      type: "font/woff",
    });
    expect(done.status, done.body_text).toBe(303);
    const listed = await client.get("/dashboard/production/assets?notice=uploaded");
    expect(listed.body_text).toContain("Press Start 2P");
    expect(listed.body_text).toContain("WOFF");
    const id = /\/assets\/([0-9a-f-]{36})\/delete/.exec(listed.body_text)?.[1];
    expect(id).toBeDefined();
    // The builder offers it, and its preview draws with it.
    const builder = await client.get("/dashboard/production/timers/new");
    expect(builder.body_text).toContain(
      `<option value="asset:${id}">Press Start 2P (uploaded)</option>`,
    );
    const preview = async (font: string) => {
      const query = new URLSearchParams([
        ["name", "Sale"],
        ["type", "fixed"],
        ["deadline_local", "2030-01-01T10:00"],
        ["timezone", "Europe/Berlin"],
        ["font", font],
        ["font_size", "48"],
        ...["days", "hours", "minutes", "seconds"].map((u) => ["units", u]),
        ["show_labels", "on"],
        ["pad", "on"],
        ["separator", ":"],
        ["locale", "en"],
        ["panel", "rounded"],
        ["theme", "light"],
      ]);
      const res = await fetch(`${s.url}/dashboard/production/preview.png?${query}`, {
        headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
      });
      expect(res.status).toBe(200);
      return Buffer.from(await res.arrayBuffer());
    };
    expect((await preview(`asset:${id}`)).equals(await preview("sans"))).toBe(false);
    const gone = await client.post(`/dashboard/production/assets/${id}/delete`, {});
    expect(gone.status).toBe(303);
    expect((await client.get("/dashboard/production/assets")).body_text).toContain(
      "No fonts or images yet",
    );
  });
});

describe.skipIf(!available)("dashboard: fonts and images in Chromium", () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
    });
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    page.on("dialog", (d) => d.accept());
  }, 60_000);
  afterAll(() => browser?.close());

  async function capture(name: string): Promise<void> {
    await page.waitForLoadState("load");
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [w, h] of [
        [1280, 800],
        [390, 844],
      ] as const) {
        await page.setViewportSize({ width: w, height: h });
        const suffix = scheme === "dark" ? "-dark" : "";
        await page.screenshot({ path: join(SHOTS, `${name}${suffix}-${w}.png`), fullPage: true });
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          w,
        );
        expect(await axe(page), `axe on ${name}${suffix} at ${w}`).toEqual([]);
      }
    }
    await page.emulateMedia({ colorScheme: "light" });
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  it("uploads a font and picks it in the builder, whose preview draws it", async () => {
    const key = await s.key("production");
    const { link } = await s.admin.createUser({
      account: key.account,
      email: "brand@example.com",
      role: "owner",
    });
    await page.goto(link.url!);
    await page.fill("#password", "correct horse battery staple");
    await page.fill("#confirm", "correct horse battery staple");
    await page.click("button[type=submit]");
    await page.waitForURL(`${s.url}/dashboard/production`);
    await page.click("nav.main >> text=Fonts & images");
    await page.setInputFiles("#a-file", FONT_PATH.pathname);
    await page.click("form[enctype] button[type=submit]");
    await page.waitForURL(/notice=uploaded$/);
    expect(await page.textContent("tbody")).toContain("Press Start 2P");
    await capture("assets");
    await page.goto(`${s.url}/dashboard/production/timers/new`);
    const value = await page.getAttribute("#font option:has-text('Press Start 2P')", "value");
    expect(value).toMatch(/^asset:/);
    const state = () => page.getAttribute("form[data-preview]", "data-preview-state");
    const before = await state();
    await page.selectOption("#font", value!);
    // The preview follows the field: drawn again, with the upload, without a problem.
    await expect.poll(state, { timeout: 30_000 }).not.toBe(before);
    expect(await state()).not.toBe("error");
    await page.waitForTimeout(500);
    await capture("builder-uploaded-font");
  }, 180_000);

  it("shows a published timer's hosted page and embed in the uploaded font, fitting a phone", async () => {
    const key = await s.key("production");
    const font = await s.call("POST", "/api/v1/assets", {
      key,
      body: { kind: "font", name: "Press Start 2P.woff", data: WOFF.toString("base64") },
    });
    expect(font.status, font.text).toBe(201);
    const created = await s.call("POST", "/api/v1/timers", {
      key,
      // The widest row there is: days in the thousands, a three-character separator.
      body: {
        type: "fixed",
        name: "Summer sale",
        deadline_at: "2035-01-01T00:00:00Z",
        look: { font_asset_id: font.json.data.id, separator: " : ", font_size: 96 },
      },
      headers: { "idempotency-key": crypto.randomUUID() },
    });
    expect(created.status, created.text).toBe(201);
    const published = await s.call("POST", `/api/v1/timers/${created.json.data.id}/publish`, {
      key,
      headers: { "if-match": created.json.data.revision },
    });
    const urls = published.json.data.urls;
    for (const [name, url] of [
      ["hosted-page-uploaded-font", urls.page],
      ["embed-uploaded-font", urls.embed],
    ] as const) {
      await page.goto(url);
      // The font arrives from the timer's own route (the digits ask for it: it loads).
      await page.waitForFunction(() => document.fonts.status === "loaded");
      const used = await page.evaluate(() =>
        [...document.fonts]
          .filter(
            (f) => f.family.startsWith('"tminus-upload-') || f.family.startsWith("tminus-upload-"),
          )
          .map((f) => f.status),
      );
      expect(used).toContain("loaded");
      await capture(name);
    }
  }, 180_000);
});
