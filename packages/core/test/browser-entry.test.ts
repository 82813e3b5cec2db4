// `@tminus/core/browser` as a page gets it (esbuild's bundle of the entry, minified) must
// answer exactly as the main entry: over the status and recurrence table, and over random
// timers and instants. The same bundle runs in Chromium in http/test/countdown-element.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import fc from "fast-check";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_HOW, skipping } from "../../../test/_skipping";
import * as full from "../src/index";
import type { StatusInput, TimerClock } from "../src/status/types";
import { BROWSER_TABLE } from "./_browser-table";

type BrowserEntry = typeof import("../src/browser");
let browser: BrowserEntry;
let iife = "";
// Chromium answers with its own Intl and tz data: under CI a missing browser fails the run.
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const chromiumAvailable = existsSync(CHROMIUM);
if (!chromiumAvailable && process.env.CI)
  throw new Error(`CI needs Chromium at ${CHROMIUM} (.ci/run installs it)`);
if (!chromiumAvailable) skipping(`Chromium at ${CHROMIUM}`, CHROMIUM_HOW);
const dir = mkdtempSync(join(tmpdir(), "tminus-core-browser-"));

/** The entry bundled as a page's bundler would: minified, for browsers. */
async function bundle(format: "esm" | "iife"): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL("../src/browser.ts", import.meta.url))],
    bundle: true,
    minify: true,
    format,
    ...(format === "iife" ? { globalName: "tminusCore" } : {}),
    platform: "browser",
    write: false,
  });
  return result.outputFiles[0]!.text;
}

beforeAll(async () => {
  iife = await bundle("iife");
  const file = join(dir, "browser.mjs");
  writeFileSync(file, await bundle("esm"));
  browser = (await import(pathToFileURL(file).href)) as BrowserEntry;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("@tminus/core/browser", () => {
  it.each(BROWSER_TABLE.map((row) => [row.name, row] as const))("%s: same status", (_, row) => {
    const answers = row.instants.map((now) => browser.computeStatus(row.input, now));
    expect(answers).toEqual(row.instants.map((now) => full.computeStatus(row.input, now)));
    expect(answers.length).toBeGreaterThan(9);
  });

  it("the table covers every type and state", () => {
    const seen = new Set<string>();
    for (const row of BROWSER_TABLE)
      for (const now of row.instants) {
        const s = full.computeStatus(row.input, now);
        seen.add(row.input.definition.type).add(s.state);
      }
    expect([...seen].sort()).toEqual(
      [
        "duration",
        "ended",
        "fixed",
        "not_started",
        "paused",
        "personalized",
        "recurring",
        "running",
      ].sort(),
    );
  });

  it("formats as the main entry does", () => {
    for (const locale of ["en", "pl", "ar", "ru", "zh-Hant", "pt-BR", "xx"])
      for (const n of [0, 1, 2, 5, 11, 22, 101])
        for (const unit of full.TIME_UNITS)
          expect(browser.unitLabel(unit, n, locale)).toBe(full.unitLabel(unit, n, locale));
    const split = { largestUnit: "hours", units: ["hours", "seconds"] } as const;
    expect(browser.splitRemaining(93_784, split)).toEqual(full.splitRemaining(93_784, split));
    const parts = full.splitRemaining(93_784);
    expect(browser.formatParts(parts, { pad: true })).toEqual(
      full.formatParts(parts, { pad: true }),
    );
  });

  it("same status for random recurring and wall-clock timers at random instants", () => {
    const zones = [
      "America/New_York",
      "Europe/Paris",
      "Australia/Lord_Howe",
      "America/Santiago",
      "Pacific/Chatham",
      "Asia/Kolkata",
      "America/St_Johns",
      "Africa/Casablanca",
    ];
    const wall = fc
      .record({
        y: fc.integer({ min: 2024, max: 2030 }),
        mo: fc.integer({ min: 1, max: 12 }),
        d: fc.integer({ min: 1, max: 28 }),
        h: fc.integer({ min: 0, max: 23 }),
        mi: fc.constantFrom(0, 15, 30, 59),
      })
      .map(({ y, mo, d, h, mi }) => {
        const p = (n: number) => String(n).padStart(2, "0");
        return `${y}-${p(mo)}-${p(d)}T${p(h)}:${p(mi)}`;
      });
    const rule = fc.constantFrom(
      "FREQ=DAILY",
      "FREQ=DAILY;BYHOUR=1,2,3",
      "FREQ=WEEKLY;BYDAY=SU,WE",
      "FREQ=MONTHLY;BYDAY=-1SU",
      "FREQ=DAILY;INTERVAL=3;COUNT=20",
    );
    const definition = fc.oneof(
      fc
        .record({
          zone: fc.constantFrom(...zones),
          rrule: rule,
          dtstart: wall,
          hold: fc.constantFrom(0, 60, 3600),
        })
        .map(({ zone, rrule, dtstart, hold }) =>
          full.recurringTimerSchema.parse({
            type: "recurring",
            name: "p",
            timezone: zone,
            recurrence: { rrule, dtstart, ended_hold_seconds: hold },
          }),
        ),
      fc.record({ zone: fc.constantFrom(...zones), local: wall }).map(({ zone, local }) =>
        full.fixedTimerSchema.parse({
          type: "fixed",
          name: "p",
          timezone: zone,
          deadline_local: local,
        }),
      ),
    );
    const clock: fc.Arbitrary<TimerClock> = fc.record({
      published_at: fc.constant(null),
      paused_at: fc.option(fc.integer({ min: 1.7e12, max: 1.92e12 }), { nil: null }),
      paused_ms: fc.integer({ min: 0, max: 86_400_000 }),
      extended_seconds: fc.integer({ min: 0, max: 86_400 }),
      started_at: fc.constant(null),
    });
    fc.assert(
      fc.property(definition, clock, fc.integer({ min: 1.7e12, max: 1.92e12 }), (d, c, now) => {
        const input: StatusInput = { definition: d, clock: c };
        expect(browser.computeStatus(input, now)).toEqual(full.computeStatus(input, now));
      }),
      { numRuns: 300 },
    );
  });
});

describe.skipIf(!chromiumAvailable)("@tminus/core/browser in Chromium", () => {
  it("answers the whole table as the main entry does in Node", async () => {
    const b = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    });
    try {
      const page = await b.newPage();
      await page.addScriptTag({ content: iife });
      const rows = BROWSER_TABLE.map((row) => ({ input: row.input, instants: row.instants }));
      const answers = await page.evaluate((rows) => {
        const core = (window as unknown as { tminusCore: BrowserEntry }).tminusCore;
        return rows.map((row) => row.instants.map((now) => core.computeStatus(row.input, now)));
      }, rows);
      expect(answers).toEqual(
        BROWSER_TABLE.map((row) => row.instants.map((now) => full.computeStatus(row.input, now))),
      );
    } finally {
      await b.close();
    }
  });
});
