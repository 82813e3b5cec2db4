// Mutation testing (StrykerJS, vitest runner). `pnpm mutate:core` and `pnpm mutate:guards`
// run one scope each, `pnpm mutate` both; TMINUS_MUTATE=core:<folder> (for example
// core:recurrence) runs one folder of packages/core/src with its own incremental file.
// A full run is not part of .ci/run (too slow for two cores; the last scores are in
// docs/testing.md), but each scope's dry run is (`pnpm mutate:dry`): the scope's tests must
// pass under Stryker, capped fast-check included, or no score can be measured at all.
// Incremental: a rerun only tests mutants whose code or covering tests changed, using
// reports/stryker-incremental-<scope>.json (gitignored: it holds machine-local test ids
// and churns on every run).
const scope = process.env.TMINUS_MUTATE ?? "all";

/** What each scope mutates: all of core; the API's guards in http and webhooks. */
const mutate = {
  core: ["packages/core/src/**/*.ts", "!packages/core/src/time/zones.generated.ts"],
  guards: [
    "packages/http/src/guards/auth.ts",
    "packages/admin/src/api-key-format.ts",
    "packages/http/src/guards/rate-limit.ts",
    "packages/http/src/guards/idempotency.ts",
    "packages/http/src/cursor.ts",
    "packages/http/src/paging.ts",
    "packages/admin/src/scopes.ts",
    "packages/webhooks/src/signing.ts",
    "packages/webhooks/src/address-policy.ts",
  ],
};
const folder = /^core:([a-z-]+)$/.exec(scope)?.[1];
const files = folder
  ? [`packages/core/src/${folder}/**/*.ts`, "!packages/core/src/time/zones.generated.ts"]
  : (mutate[scope] ?? [...mutate.core, ...mutate.guards]);
// A folder of core runs core's tests; the file names below must not contain ":".
const name = scope.replace(":", "-");

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  // pnpm keeps plugins out of core's own node_modules: name the runner so it is found.
  plugins: ["@stryker-mutator/vitest-runner"],
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutate.config.ts" },
  mutate: files,
  // Static mutants (module-level constants) need a fresh process per mutant: slow, and
  // the values they change are pinned by the tests that read them anyway.
  ignoreStatic: true,
  incremental: true,
  incrementalFile: `reports/stryker-incremental-${name}.json`,
  coverageAnalysis: "perTest",
  concurrency: 2,
  timeoutMS: 10_000,
  // The initial (dry) run is all of a scope's tests, instrumented: minutes on two busy cores,
  // not a hung runner.
  dryRunTimeoutMinutes: 30,
  reporters: ["clear-text", "progress-append-only", "html", "json"],
  htmlReporter: { fileName: `reports/mutation/${name}.html` },
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  clearTextReporter: { allowColor: false, reportScoreTable: true, reportMutants: true },
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
  ignorePatterns: ["dist", "coverage", "reports", "bench/results", "*.db", "examples"],
};
