// Mutation testing (StrykerJS, vitest runner): `pnpm mutate` runs both scopes,
// `pnpm mutate:core` and `pnpm mutate:guards` one each; add `--mutate '<glob>'` to narrow
// it to a folder. Not part of .ci/run (too slow for two cores); the last scores are in
// docs/testing.md. Incremental: a rerun only tests mutants whose code or covering
// tests changed, using reports/stryker-incremental-<scope>.json (gitignored: it holds
// machine-local test ids and churns on every run).
const scope = process.env.TMINUS_MUTATE ?? "all";

/** What each scope mutates: all of core; the API's guards in http and webhooks. */
const mutate = {
  core: ["packages/core/src/**/*.ts", "!packages/core/src/time/zones.generated.ts"],
  guards: [
    "packages/http/src/auth.ts",
    "packages/http/src/api-key-format.ts",
    "packages/http/src/rate-limit.ts",
    "packages/http/src/idempotency.ts",
    "packages/http/src/cursor.ts",
    "packages/http/src/paging.ts",
    "packages/http/src/scopes.ts",
    "packages/webhooks/src/signing.ts",
    "packages/webhooks/src/address-policy.ts",
  ],
};

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  // pnpm keeps plugins out of core's own node_modules: name the runner so it is found.
  plugins: ["@stryker-mutator/vitest-runner"],
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutate.config.ts" },
  mutate: mutate[scope] ?? [...mutate.core, ...mutate.guards],
  // Static mutants (module-level constants) need a fresh process per mutant: slow, and
  // the values they change are pinned by the tests that read them anyway.
  ignoreStatic: true,
  incremental: true,
  incrementalFile: `reports/stryker-incremental-${scope}.json`,
  coverageAnalysis: "perTest",
  concurrency: 2,
  timeoutMS: 20_000,
  reporters: ["clear-text", "progress-append-only", "html", "json"],
  htmlReporter: { fileName: `reports/mutation/${scope}.html` },
  jsonReporter: { fileName: `reports/mutation/${scope}.json` },
  clearTextReporter: { allowColor: false, reportScoreTable: true, reportMutants: true },
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
  ignorePatterns: ["dist", "coverage", "reports", "bench/results", "*.db", "examples"],
};
