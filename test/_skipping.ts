// What a test file skips for want of a real part (PostgreSQL, Chromium) outside CI, said in one
// line per file and part, with how to get it: a quiet skip would read as a pass. The helpers
// that look for a part call `skipping`; under CI=true they throw instead.
import { relative } from "node:path";
import { expect } from "vitest";

const KEY = Symbol.for("tminus.test.skipping");

/** Notes that this file skips tests because `what` is missing; `how` says how to get it. */
export function skipping(what: string, how: string): void {
  // One line per file and part, however many helpers notice (vitest gives each file fresh
  // modules, but globalThis may be shared by the files a worker runs).
  const holder = globalThis as { [KEY]?: Set<string> };
  holder[KEY] ??= new Set<string>();
  const path = expect.getState().testPath;
  const file = path ? relative(process.cwd(), path) : "a test file";
  const line = `SKIPPED tests of ${file}: no ${what} (${how})`;
  if (holder[KEY].has(line)) return;
  holder[KEY].add(line);
  process.stderr.write(`${line}\n`);
}

/** How to get Chromium for the browser tests. */
export const CHROMIUM_HOW =
  "apt-get install chromium, or set CHROMIUM_PATH to a Chromium or Chrome binary";

/** How to get the PostgreSQL server the store and multi-process tests use. */
export const POSTGRES_HOW =
  "apt-get install postgresql and trust local TCP for user postgres as docs/testing.md shows, or set TMINUS_TEST_PG_URL";
