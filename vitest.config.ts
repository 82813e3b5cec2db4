import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const src = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/** A project whose files run one at a time, in vitest's sequential group after the others. */
const SERIAL = { maxWorkers: 1 } as const;

// Unit and contract tests run against the sources; tests that start the CLI or the
// examples run the built packages, exactly as a user would (the build runs first).
export default defineConfig({
  resolve: {
    alias: {
      "@tminus/core/browser": src("./packages/core/src/browser.ts"),
      "@tminus/core": src("./packages/core/src/index.ts"),
      "@tminus/store/test-suite": src("./packages/store/test/store-suite.ts"),
      "@tminus/store/sqlite": src("./packages/store/src/sqlite/index.ts"),
      "@tminus/store/postgres": src("./packages/store/src/postgres/index.ts"),
      "@tminus/store/copy": src("./packages/store/src/copy/index.ts"),
      "@tminus/store": src("./packages/store/src/index.ts"),
      "@tminus/http": src("./packages/http/src/index.ts"),
      "@tminus/dashboard": src("./packages/dashboard/src/index.ts"),
      "@tminus/admin": src("./packages/admin/src/index.ts"),
      "@tminus/observability": src("./packages/observability/src/index.ts"),
      "@tminus/render": src("./packages/render/src/index.ts"),
      "@tminus/webhooks": src("./packages/webhooks/src/index.ts"),
    },
  },
  test: {
    // fast-check defaults shared by every project: fixed runs, replay by FC_SEED/FC_PATH.
    setupFiles: [src("./vitest.setup.ts")],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two files at a time. Vitest's default is one fewer than the cores, so one at a time on
    // CI's two: most files spend their time waiting on loopback HTTP, PostgreSQL or a worker,
    // and one after another the suite took half an hour. Not more than two, and the projects
    // that start processes, servers and browsers (http, cli, dashboard, examples) one file at
    // a time (`SERIAL`, run after the others): two at once timed their waits out, and
    // http's load-shedding test needs the machine to itself.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: "core", include: ["packages/core/test/**/*.test.ts"] } },
      {
        extends: true,
        test: {
          name: "store",
          include: ["packages/store/test/**/*.test.ts"],
          exclude: ["packages/store/test/pglite.test.ts"],
        },
      },
      // The PostgreSQL adapter on PGlite (Postgres in WebAssembly, in-process): no server needed.
      {
        extends: true,
        test: { name: "store-pglite", include: ["packages/store/test/pglite.test.ts"] },
      },
      {
        extends: true,
        test: { name: "http", include: ["packages/http/test/**/*.test.ts"], ...SERIAL },
      },
      {
        extends: true,
        test: { name: "dashboard", include: ["packages/dashboard/test/**/*.test.ts"], ...SERIAL },
      },
      {
        extends: true,
        test: { name: "admin", include: ["packages/admin/test/**/*.test.ts"] },
      },
      {
        extends: true,
        test: { name: "observability", include: ["packages/observability/test/**/*.test.ts"] },
      },
      { extends: true, test: { name: "render", include: ["packages/render/test/**/*.test.ts"] } },
      {
        extends: true,
        test: { name: "webhooks", include: ["packages/webhooks/test/**/*.test.ts"] },
      },
      {
        extends: true,
        test: { name: "cli", include: ["packages/cli/test/**/*.test.ts"], ...SERIAL },
      },
      {
        extends: true,
        test: { name: "examples", include: ["examples/*/test/**/*.test.ts"], ...SERIAL },
      },
      // Repository scripts (the docs link check), run as processes.
      { extends: true, test: { name: "scripts", include: ["test/**/*.test.ts"] } },
    ],
  },
});
