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
// core:<folder> runs core's tests.
const scope = (process.env.TMINUS_MUTATE ?? "all").split(":")[0]!;

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
    testTimeout: 30_000,
    include: scopes[scope] ?? Object.values(scopes).flat(),
  },
});
