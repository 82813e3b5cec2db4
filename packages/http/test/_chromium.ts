// A real browser for the dashboard tests: Debian's chromium, driven by playwright-core.
// Under CI (CI=true) a missing browser fails the run; elsewhere the suites skip.
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";
import { CHROMIUM_HOW, skipping } from "../../../test/_skipping";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Whether Chromium is there; throws under CI when it is not. */
export const chromiumAvailable = existsSync(CHROMIUM);
if (!chromiumAvailable && process.env.CI)
  throw new Error(`CI needs Chromium at ${CHROMIUM} (.ci/run installs it)`);
if (!chromiumAvailable) skipping(`Chromium at ${CHROMIUM}`, CHROMIUM_HOW);

/** Starts headless Chromium with the flags this machine's closed network needs. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
  });
}
