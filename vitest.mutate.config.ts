import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import base from "./vitest.config";

// The tests mutation testing runs (stryker.config.mjs): only fast ones, no server, no
// browser, no PostgreSQL, so each mutant costs milliseconds. TMINUS_MUTATE picks the scope.
const scopes: Record<string, string[]> = {
  core: ["packages/core/test/**/*.test.ts"],
  guards: [
    "packages/http/test/unit/**/*.test.ts",
    "packages/webhooks/test/delivery-parts.test.ts",
    "packages/webhooks/test/unit/**/*.test.ts",
  ],
};
// core:<folder> runs the core tests named after that folder (recurrence -> recurrence-*.test.ts),
// all of core's when none is: a lower bound of the full suite's score, found far sooner.
const [scope, folder] = (process.env.TMINUS_MUTATE ?? "all").split(":") as [string, string?];
const folderTests: Record<string, string[]> = {
  recurrence: ["packages/core/test/recurrence-*.test.ts"],
  personalize: ["packages/core/test/personalized-*.test.ts"],
  status: [
    "packages/core/test/status.test.ts",
    "packages/core/test/fixed-local.test.ts",
    "packages/core/test/personalized-status.test.ts",
    "packages/core/test/recurrence-status.test.ts",
    "packages/core/test/viewer-timezone.test.ts",
  ],
  // The small folders' own tests (issue 43): a folder's run then takes minutes, not the
  // quarter hour all of core's tests need on the shared machine; the score is a lower bound.
  format: ["packages/core/test/format*.test.ts"],
  html: ["packages/core/test/html-*.test.ts"],
  image: ["packages/core/test/image-*.test.ts"],
  // Every test that builds a timer object: fixed and recurring views are shown in the
  // fixed-local, common-fields and schema tests.
  resource: [
    "packages/core/test/public-urls.test.ts",
    "packages/core/test/timer-view.test.ts",
    "packages/core/test/common-fields.test.ts",
    "packages/core/test/fixed-local.test.ts",
    "packages/core/test/schema.test.ts",
  ],
};

export default defineConfig({
  resolve: {
    alias: [
      // Properties run fewer cases per mutant (see the file); exact match only.
      {
        find: /^fast-check$/,
        replacement: fileURLToPath(new URL("./vitest.mutate.fast-check.ts", import.meta.url)),
      },
      ...Object.entries(base.resolve?.alias ?? {}).map(([find, replacement]) => ({
        find,
        replacement,
      })),
    ],
  },
  test: {
    setupFiles: base.test?.setupFiles,
    // Generous: mutation runs share two busy cores; a slow test is not a killed mutant.
    testTimeout: 120_000,
    include: (folder && folderTests[folder]) || scopes[scope] || Object.values(scopes).flat(),
    // The comparison with rrule.js (npm) takes half a minute per run; the naive day-by-day
    // oracle in recurrence-properties checks the same rules and is what kills mutants.
    exclude: ["packages/core/test/recurrence-rrulejs.test.ts", "**/node_modules/**"],
  },
});
