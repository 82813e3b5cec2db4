// What a test file skips for want of a real part (PostgreSQL, Chromium) outside CI: noted here
// by the helpers that look for the part, and said in one line per file by vitest.setup.ts
// after the file ran, with how to get the part. Under CI=true the helpers throw instead.

const KEY = Symbol.for("tminus.test.skipping");

/** The notes of the file running now (vitest runs each file with fresh modules). */
export function skippingNotes(): Set<string> {
  const holder = globalThis as { [KEY]?: Set<string> };
  holder[KEY] ??= new Set<string>();
  return holder[KEY];
}

/** Notes that this file skips tests because `what` is missing; `how` says how to get it. */
export function skipping(what: string, how: string): void {
  skippingNotes().add(`no ${what} (${how})`);
}

/** How to get Chromium for the browser tests. */
export const CHROMIUM_HOW =
  "apt-get install chromium, or set CHROMIUM_PATH to a Chromium or Chrome binary";

/** How to get the PostgreSQL server the store and multi-process tests use. */
export const POSTGRES_HOW =
  "apt-get install postgresql and trust local TCP for user postgres as docs/testing.md shows, or set TMINUS_TEST_PG_URL";
