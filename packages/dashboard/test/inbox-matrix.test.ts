// Issue 37's inbox matrix: from the builder to a recipient's email, in one Chromium against a
// real server with a set clock. Four timers are built in the builder (a fixed deadline, a
// 53-hour evergreen, a weekly recurring one, a signed personalized one with a fallback), each
// with the click URLs of "Where the email's link leads". For each timer type, each platform
// the share panel offers (per-recipient timers) and the retina, dark and width options
// (rotated so every option meets every type, and every platform each per-recipient type),
// the share panel's snippet is filled as that platform fills its tags (each platform's own
// syntax read by a pattern of this test, not by the table the snippets come from), put in an
// email page and opened, in light and in dark mode. Every image loads; 2x images are drawn at
// twice the <img>'s width and height; frame 0 of each GIF the browser loaded shows the time
// the status route gives for the same parameters, within 1 s; the same snippets with their
// tags left unfilled show the fallback or the full-length preview, never "Ended"; the image's
// link leads to the builder's click URL (and, for a deadline that has passed, to its ended one).
import { createHmac } from "node:crypto";
import { imageInputOf, type TimerDefinition, timerData } from "@tminus/core";
import type { IssuedApiKey } from "@tminus/http";
import { createImageRenderer } from "@tminus/render";
import omggif from "omggif";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, launchChromium } from "../../http/test/_chromium";
import { EMAIL_PLATFORMS, type EmailPlatform } from "../src/email-platforms";
import { formQuery } from "../src/pages/builder-form";
import { defaultFormValues, type TimerFormValues } from "../src/timer-form";
import { type DashboardClient, dashboardClient } from "./_dashboard";
import { startTestServer, type TestServer } from "./_harness";

/** Tuesday 24 November 2026, 10:00 in Berlin. */
const NOW = Date.parse("2026-11-24T09:00:00Z");
const SHOP = "https://shop.example";

/** The share panel's options, rotated over the cases. */
interface Options {
  retina: boolean;
  dark: boolean;
  width: number;
}
const OPTIONS: Options[] = [
  { retina: false, dark: false, width: 600 },
  { retina: true, dark: false, width: 600 },
  { retina: false, dark: true, width: 600 },
  { retina: false, dark: false, width: 300 },
  { retina: true, dark: true, width: 600 },
  { retina: true, dark: false, width: 320 },
  { retina: false, dark: true, width: 480 },
  { retina: true, dark: true, width: 300 },
];

/**
 * How each platform fills its own tags: a pattern of its syntax and the contact field each
 * tag names. A tag no pattern knows stays in the URL, and the test sees it as unfilled.
 */
const FILLERS: Record<EmailPlatform, RegExp[]> = {
  Mailchimp: [/\*\|([A-Z0-9_]+)\|\*/g],
  Klaviyo: [/\{\{\s*person\.(\w+)\s*\}\}/g],
  HubSpot: [/\{\{\s*contact\.(\w+)\s*\}\}/g],
  Braze: [/\{\{\$\{(\w+)\}\}\}/g, /\{\{custom_attribute\.\$\{(\w+)\}\}\}/g],
  "Salesforce Marketing Cloud": [/%%(\w+)%%/g],
  "Customer.io": [/\{\{\s*customer\.(\w+)\s*\}\}/g],
  SendGrid: [/\{\{\s*(\w+)\s*\}\}/g],
  Brevo: [/\{\{\s*contact\.(\w+)\s*\}\}/g],
};

/** The contact record of one recipient, by field name in lower case. */
function contact(id: string, deadline: string, secret: string): Record<string, string> {
  // The recipe of docs/email.md: HMAC over the raw value.
  const sig = createHmac("sha256", secret)
    .update(`tminus-personalized-v1\ndeadline=${deadline}`)
    .digest("base64url");
  return {
    uniqid: id,
    klaviyoid: id,
    hs_object_id: id,
    user_id: id,
    _subscriberkey: id,
    cio_id: id,
    recipient_id: id,
    countdown_deadline: deadline,
    countdown_sig: sig,
  };
}

/** The snippet as the platform sends it: each of its tags replaced by the contact's value. */
function fill(platform: EmailPlatform, code: string, record: Record<string, string>): string {
  let out = code;
  for (const pattern of FILLERS[platform]) {
    out = out.replace(pattern, (tag, name: string) => record[name.toLowerCase()] ?? tag);
  }
  return out;
}

const unescapeHtml = (text: string) =>
  text
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&amp;", "&");

let s: TestServer;
let browser: Browser;
let client: DashboardClient;
let key: IssuedApiKey;
const images = createImageRenderer();

interface Built {
  type: string;
  id: string;
  definition: TimerDefinition;
  secret: string | null;
  click: string;
}

/** Builds a timer in the builder (the form's own defaults, then `change`), publishes it. */
async function build(type: string, change: Partial<TimerFormValues>): Promise<Built> {
  const values = { ...defaultFormValues(NOW, "Europe/Berlin"), name: `Inbox ${type}`, type };
  const form = formQuery({
    ...values,
    ...change,
    click_url: `${SHOP}/${type}/running`,
    not_started_click_url: `${SHOP}/${type}/soon`,
    ended_click_url: `${SHOP}/${type}/ended`,
  });
  const fields: Record<string, string[]> = {};
  for (const k of new Set(form.keys())) fields[k] = form.getAll(k);
  await client.get("/dashboard/production/timers/new");
  const made = await client.post("/dashboard/production/timers", {
    ...fields,
    idempotency_key: crypto.randomUUID(),
  });
  expect(made.status, made.body_text.slice(0, 2000)).toBe(303);
  const id = /timers\/([0-9a-f-]{36})/.exec(made.headers.get("location")!)![1]!;
  await client.get(`/dashboard/production/timers/${id}`);
  const published = await client.post(`/dashboard/production/timers/${id}/publish`, {
    revision: "r1",
  });
  expect(published.status).toBe(303);
  const record = (await s.store.findTimerById(id))!;
  const data = timerData(record);
  return {
    type,
    id,
    definition: data.definition as TimerDefinition,
    secret: data.signing_secret ?? null,
    click: `${SHOP}/${type}/running`,
  };
}

/** The share panel's email snippet for these options (the per-recipient one where there is one). */
async function snippet(t: Built, platform: EmailPlatform, o: Options): Promise<string> {
  const query = new URLSearchParams({ share: "1", platform, width: String(o.width) });
  if (o.retina) query.set("retina", "2");
  if (o.dark) query.set("dark", "1");
  const page = await client.get(`/dashboard/production/timers/${t.id}?${query}`);
  expect(page.status).toBe(200);
  const id = t.type === "duration" || t.type === "personalized" ? "snippet-merge" : "snippet-img";
  const code = new RegExp(`<textarea id="${id}"[^>]*>([^<]*)</textarea>`).exec(page.body_text);
  expect(code, `${t.type} ${platform}`).not.toBeNull();
  return unescapeHtml(code![1]!);
}

/** One image of an email page: what it is, and what the status route must agree with. */
interface Case {
  label: string;
  t: Built;
  options: Options;
  /** The status route's query for the same recipient. */
  statusQuery: string;
  html: string;
  /** Where its link must lead. */
  click: string;
  /** Personalized: whose deadline the status route must say it counts to. */
  source?: "viewer" | "fallback";
  /** Its tags left unfilled: the server must answer it as a test send's preview. */
  unfilled?: boolean;
}

function firstFrame(bytes: Uint8Array) {
  const reader = new omggif.GifReader(Buffer.from(bytes));
  const rgba = new Uint8Array(reader.width * reader.height * 4);
  reader.decodeAndBlitFrameRGBA(0, rgba);
  return { width: reader.width, height: reader.height, rgba };
}

/** Opens an email page of cases, in light or dark, and checks every image it shows. */
async function openEmail(page: Page, cases: Case[], scheme: "light" | "dark") {
  // Every GIF the browser loads passes through here, so the bytes checked are the ones shown.
  const gifs = new Map<string, Uint8Array>();
  const previews = new Set<string>();
  await page.route("**/countdown.gif?**", async (route) => {
    const response = await route.fetch();
    gifs.set(route.request().url(), new Uint8Array(await response.body()));
    if (response.headers()["x-tminus-preview"] === "unfilled-merge-tag") {
      previews.add(route.request().url());
    }
    await route.fulfill({ response });
  });
  await page.emulateMedia({ colorScheme: scheme });
  const body = cases.map((c, i) => `<div id="case-${i}">${c.html}</div>`).join("\n");
  await page.setContent(`<!doctype html><html><body>${body}</body></html>`, { waitUntil: "load" });
  const shown = await page.evaluate(() =>
    [...document.querySelectorAll("img")].map((img) => ({
      complete: img.complete,
      src: img.currentSrc,
      naturalWidth: img.naturalWidth,
      naturalHeight: img.naturalHeight,
      width: Number(img.getAttribute("width")),
      height: Number(img.getAttribute("height")),
    })),
  );
  expect(shown.length).toBe(cases.length);
  // Every response body is in before it is read.
  await expect
    .poll(() => shown.filter((img) => !gifs.has(img.src)).map((img) => img.src), {
      timeout: 30_000,
    })
    .toEqual([]);
  await page.unroute("**/countdown.gif?**");
  const offsets: number[] = [];
  for (const [i, c] of cases.entries()) {
    const img = shown[i]!;
    const label = `${c.label} (${scheme})`;
    expect(img.complete && img.naturalWidth > 0, label).toBe(true);
    expect(previews.has(img.src), `${label}: a preview exactly when unfilled`).toBe(!!c.unfilled);
    const scale = c.options.retina ? 2 : 1;
    expect([img.naturalWidth, img.naturalHeight], label).toEqual([
      img.width * scale,
      img.height * scale,
    ]);
    // The dark picture in dark mode, where the snippet has one; the light one otherwise.
    const variant = new URL(img.src).searchParams.get("variant") ?? "light";
    expect(variant, label).toBe(c.options.dark && scheme === "dark" ? "dark" : "light");
    const status = await s.call("GET", `/api/v1/timers/${c.t.id}/status?${c.statusQuery}`, { key });
    expect(status.status, status.text).toBe(200);
    const data = status.json.data as {
      ended: boolean;
      state: "running" | "ended" | "paused" | "not_started";
      remaining: { total_seconds: number };
      deadline_source?: string;
    };
    expect(data.ended, `${label}: the status route says it runs`).toBe(false);
    if (c.source) expect(data.deadline_source, label).toBe(c.source);
    const frame = firstFrame(gifs.get(img.src)!);
    // The drawing of the status route's time, and of a second either side.
    let offset: number | null = null;
    for (const delta of [0, -1, 1]) {
      const expected = await images.rgba(
        imageInputOf(
          c.t.definition,
          {
            ...data,
            remaining: { ...data.remaining, total_seconds: data.remaining.total_seconds + delta },
          } as never,
          { width: c.options.width, scale: scale as 1 | 2, variant: variant as "light" | "dark" },
        ),
      );
      if (
        expected.width === frame.width &&
        Buffer.compare(Buffer.from(expected.rgba), Buffer.from(frame.rgba)) === 0
      ) {
        offset = delta;
        break;
      }
    }
    expect(offset, `${label}: frame 0 is the status route's time within 1 s`).not.toBeNull();
    offsets.push(offset!);
  }
  return offsets;
}

describe.skipIf(!chromiumAvailable)("the inbox matrix (issue 37), in headless Chromium", () => {
  let built: Built[];

  beforeAll(async () => {
    s = await startTestServer(
      { plans: { starter: { requests_per_minute: 100_000, new_timers_per_cycle: 20 } } },
      { baseUrlIsServer: true },
    );
    s.setNow(NOW);
    key = await s.key("production");
    const { link } = await s.admin.createUser({
      account: key.account,
      email: "inbox@example.com",
      role: "owner",
    });
    client = dashboardClient(s);
    await client.get(link.path);
    const token = new URL(link.path, s.url).searchParams.get("token")!;
    const password = "correct horse battery staple";
    await client.post("/dashboard/set-password", { token, password, confirm: password });
    browser = await launchChromium();
    built = [
      await build("fixed", { deadline_local: "2026-11-27T14:05" }),
      // 53 hours: more than 23 in the hours field.
      await build("duration", { duration_days: "0", duration_hours: "53", duration_minutes: "0" }),
      await build("recurring", { freq: "WEEKLY", byday: ["FR"], at_time: "17:00" }),
      await build("personalized", {
        source: "deadline",
        require_signature: true,
        fallback_local: "2026-12-31T23:59",
      }),
    ];
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it("every snippet, filled as its platform fills it or left unfilled, shows the right time and leads to the click URL", async () => {
    const started = Date.now();
    const values = ["2026-12-07T20:43:39Z", "2026-12-07T21:43:39+01:00", "1796676219"];
    const cases: Case[] = [];
    for (const t of built) {
      const perRecipient = t.type === "duration" || t.type === "personalized";
      // Fixed and recurring snippets are the same on every platform: their options only.
      const platforms: readonly EmailPlatform[] = perRecipient
        ? EMAIL_PLATFORMS
        : OPTIONS.map(() => "Mailchimp");
      for (const [i, platform] of platforms.entries()) {
        // Rotated per type, so each option meets each type and each platform.
        const options = OPTIONS[(i + built.indexOf(t)) % OPTIONS.length]!;
        const code = await snippet(t, platform, options);
        const label = `${t.type}, ${platform}, ${JSON.stringify(options)}`;
        if (!perRecipient) {
          cases.push({ label, t, options, statusQuery: "", html: code, click: t.click });
          continue;
        }
        const deadline = values[i % values.length]!;
        const record = contact(`rcpt-${i}`, deadline, t.secret ?? "");
        const filled = fill(platform, code, record);
        expect(filled, `${label}: every tag filled`).not.toMatch(/\{\{|\*\||%%/);
        const statusQuery =
          t.type === "duration"
            ? // The recipient's first view is this instant (the server's clock stands still).
              `start=${new Date(NOW).toISOString()}`
            : `deadline=${encodeURIComponent(deadline)}&sig=${record.countdown_sig}`;
        const personal = t.type === "personalized";
        cases.push({
          label,
          t,
          options,
          statusQuery,
          html: filled,
          click: t.click,
          ...(personal ? { source: "viewer" as const } : {}),
        });
        // The same snippet unfilled, as a test send shows it: the full length, or the fallback.
        const preview = t.type === "duration" ? `start=${new Date(NOW).toISOString()}` : "";
        cases.push({
          label: `${label}, unfilled`,
          t,
          options,
          statusQuery: preview,
          html: code,
          click: t.click,
          unfilled: true,
          ...(personal ? { source: "fallback" as const } : {}),
        });
      }
    }
    const page = await browser.newPage();
    let compared = 0;
    for (const scheme of ["light", "dark"] as const) {
      for (const t of built) {
        const offsets = await openEmail(
          page,
          cases.filter((c) => c.t === t),
          scheme,
        );
        compared += offsets.length;
      }
    }

    // The image's link leads where the builder said: the running click URL for each type.
    // The shop is not on this machine: the browser's request for it is the proof.
    const follow = async (html: string) => {
      await page.setContent(`<!doctype html><html><body>${html}</body></html>`);
      const [request] = await Promise.all([
        page.waitForRequest((r) => r.url().startsWith(SHOP)),
        page.click("a"),
      ]);
      return request.url();
    };
    for (const t of built) {
      const c = cases.find((x) => x.t === t)!;
      expect(await follow(c.html), c.label).toBe(c.click);
    }
    // A recipient whose deadline has passed is led to the ended page.
    const personal = built.find((t) => t.type === "personalized")!;
    const past = contact("late", "2026-11-01T00:00:00Z", personal.secret!);
    const late = fill("Klaviyo", await snippet(personal, "Klaviyo", OPTIONS[0]!), past);
    expect(await follow(late)).toBe(`${SHOP}/personalized/ended`);
    await page.close();
    console.log(
      `inbox matrix: ${cases.length} snippets, ${compared} images opened and compared in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }, 600_000);
});
