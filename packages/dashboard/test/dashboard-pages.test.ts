import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { IssuedApiKey } from "@tminus/http";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axe } from "../../http/test/_axe";
import { chromiumAvailable, launchChromium } from "../../http/test/_chromium";
import { newKey, startTestServer, type TestServer } from "./_harness";

// Issue 23's proof for every page: each dashboard page (the route table's GET pages, in
// sandbox and production, and a timer's page of each type) with the longest texts the API
// takes, at 1280x800 and 390x844, light and dark. Each must fit its window (no sideways
// scrolling), have no serious or critical axe violation, and leaves a screenshot in
// artifacts/dashboard/pages/<page>-<width>-<theme>.png. Under CI=true a missing browser fails.
const SHOTS = join(import.meta.dirname, "../../../artifacts/dashboard/pages");
const PASSWORD = "correct horse battery staple";
const WEBHOOKS = { allow_http: true, allow_private_destinations: true, timeout_ms: 1000 };
const SIZES = [
  [1280, 800],
  [390, 844],
] as const;
const THEMES = ["light", "dark"] as const;

/** The longest name the API takes (200, docs/api.md "Limits"), without a space to break at. */
const longest = (letter: string) => letter.repeat(200);

let s: TestServer;
let browser: Browser;
let signedIn: BrowserContext;
let anonymous: BrowserContext;
let setPasswordPath = "";
const ids: Record<string, string> = {};

async function createTimer(key: IssuedApiKey, body: Record<string, unknown>) {
  const res = await s.call("POST", "/api/v1/timers", {
    key,
    body,
    headers: { "idempotency-key": newKey() },
  });
  expect(res.status, res.text).toBe(201);
  return res.json.data as { id: string; revision: string };
}

/** Seeds one environment with a timer of each type, a key and a destination, all at their maxima. */
async function seed(key: IssuedApiKey, env: string) {
  const fixed = await createTimer(key, {
    name: longest("W"),
    type: "fixed",
    deadline_at: "2026-12-24T12:00:00Z",
    metadata: { ["m".repeat(40)]: "v".repeat(500) },
    look: {
      brand_color: "#FF5A1F",
      // The longest call to action: a 2,048-character URL and a 40-character label.
      cta: {
        url: `https://shop.example.com/${"u".repeat(2048 - "https://shop.example.com/".length)}`,
        label: "B".repeat(40),
      },
    },
  });
  // Only production timers publish (a sandbox key cannot): its page shows the share panel.
  if (env === "production") {
    const published = await s.call("POST", `/api/v1/timers/${fixed.id}/publish`, {
      key,
      headers: { "if-match": fixed.revision },
    });
    expect(published.status, published.text).toBe(200);
  }
  ids[`${env}-fixed`] = fixed.id;
  ids[`${env}-duration`] = (
    await createTimer(key, { name: longest("D"), type: "duration", duration_seconds: 86_400 })
  ).id;
  ids[`${env}-recurring`] = (
    await createTimer(key, {
      name: longest("R"),
      type: "recurring",
      timezone: "America/Argentina/Buenos_Aires",
      recurrence: {
        rrule: "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=17;BYMINUTE=0",
        dtstart: "2026-11-26T17:00",
      },
    })
  ).id;
  ids[`${env}-personalized`] = (
    await createTimer(key, {
      name: longest("P"),
      type: "personalized",
      timezone: "Europe/Berlin",
      personalization: { source: "deadline", require_signature: true },
    })
  ).id;
  // A destination at its maxima: a URL of 2,048 characters and a 500-character description
  // (docs/api.md, webhooks "Limits").
  const base = "http://127.0.0.1:9/";
  const destination = await s.call("POST", "/api/v1/webhook-destinations", {
    key,
    body: { url: base + "p".repeat(2048 - base.length), description: "E".repeat(500), events: [] },
  });
  expect(destination.status, destination.text).toBe(201);
  const rule = await s.call("POST", `/api/v1/timers/${fixed.id}/webhook-rules`, {
    key,
    body: { destination_id: destination.json.data.id, events: ["timer.ended"] },
  });
  expect(rule.status, rule.text).toBe(201);
}

/** Every GET page of the dashboard's route table, by name, with who sees it. */
function pages(): { name: string; path: string; anonymous?: boolean }[] {
  const list: { name: string; path: string; anonymous?: boolean }[] = [
    { name: "sign-in", path: "/dashboard/sign-in", anonymous: true },
    { name: "set-password", path: setPasswordPath, anonymous: true },
    { name: "not-found", path: "/dashboard/production/no-such-page" },
  ];
  for (const env of ["production", "sandbox"]) {
    const at = (name: string, path: string) =>
      list.push({ name: `${env}-${name}`, path: `/dashboard/${env}${path}` });
    at("overview", "");
    at("timers", "/timers");
    at("builder", "/timers/new");
    at("looks", "/looks");
    for (const type of ["fixed", "duration", "recurring", "personalized"]) {
      at(`timer-${type}`, `/timers/${ids[`${env}-${type}`]}`);
    }
    at("analytics", `/timers/${ids[`${env}-fixed`]}/analytics`);
    at("account-analytics", "/analytics");
    at("usage", "/usage");
    at("keys", "/keys");
    at("webhooks", "/webhooks");
    at("members", "/members");
  }
  return list;
}

/** How far the document is wider than the window (0 when it fits). */
function overflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/** Visits one page at both sizes in both themes; returns what is wrong. */
async function check(page: Page, name: string, path: string): Promise<string[]> {
  const problems: string[] = [];
  for (const theme of THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      const res = await page.goto(`${s.url}${path}`, { waitUntil: "load" });
      const status = res?.status() ?? 0;
      if (status !== (name === "not-found" ? 404 : 200))
        problems.push(`${width} ${theme}: ${status}`);
      // Lazy thumbnails and the preview load now, so the checks and the screenshot see them.
      await page.evaluate(() =>
        Promise.all(
          [...document.images].map((img) => {
            img.loading = "eager";
            return img.decode().catch(() => undefined);
          }),
        ),
      );
      const wider = await overflow(page);
      if (wider > 0) problems.push(`${width} ${theme}: ${wider}px wider than the window`);
      for (const v of await axe(page)) problems.push(`${width} ${theme}: ${v}`);
      await page.screenshot({ path: join(SHOTS, `${name}-${width}-${theme}.png`), fullPage: true });
    }
  }
  return problems;
}

describe.skipIf(!chromiumAvailable)("every dashboard page, in headless Chromium", () => {
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    s = await startTestServer({ webhooks: WEBHOOKS }, { baseUrlIsServer: true });
    // Each environment's key with a name at its maximum (100, admin.ts); a sandbox plan has one.
    const account = `acct-pages-${Math.random().toString(36).slice(2, 8)}`;
    const named = (environment: "production" | "sandbox") =>
      s.admin.issueKey({ account, environment, name: "K".repeat(100) });
    const production = await named("production");
    await seed(production, "production");
    await seed(await named("sandbox"), "sandbox");
    // A member with a long address, so the Members table holds the longest row.
    await s.admin.createUser({
      account: production.account,
      email: `${"m".repeat(64)}@${"e".repeat(60)}.example.com`,
      role: "member",
    });
    const pending = await s.admin.createUser({
      account: production.account,
      email: "invited@example.com",
      role: "member",
    });
    setPasswordPath = pending.link.path;
    browser = await launchChromium();
    anonymous = await browser.newContext();
    signedIn = await browser.newContext();
    const page = await signedIn.newPage();
    const { link } = await s.admin.createUser({
      account: production.account,
      email: "owner@example.com",
      role: "owner",
    });
    await page.goto(link.url!);
    await page.fill("#password", PASSWORD);
    await page.fill("#confirm", PASSWORD);
    await page.click("button[type=submit]");
    await page.waitForURL(`${s.url}/dashboard/production`);
    await page.close();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it("catches a page wider than its window", async () => {
    // The check itself must be able to fail: a 3,527 px wide block makes the page scroll.
    const page = await signedIn.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${s.url}/dashboard/production`);
    expect(await overflow(page)).toBe(0);
    await page.evaluate(() => {
      const wide = document.createElement("div");
      wide.style.width = "3527px";
      wide.style.height = "1px";
      document.querySelector("main")!.append(wide);
    });
    expect(await overflow(page)).toBeGreaterThan(3000);
    await page.close();
  }, 60_000);

  it("every page fits 1280x800 and 390x844, light and dark, with no serious axe violation", async () => {
    const all = pages();
    expect(all.length).toBeGreaterThanOrEqual(25);
    const problems: string[] = [];
    for (const { name, path, anonymous: signedOut } of all) {
      const page = await (signedOut ? anonymous : signedIn).newPage();
      for (const p of await check(page, name, path)) problems.push(`${name}: ${p}`);
      await page.close();
    }
    expect(problems).toEqual([]);
  }, 600_000);
});
