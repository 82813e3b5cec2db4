import { defineConfig } from "tsup";
import { libraryBuild } from "../../tsup.base";

// Two builds into one dist/ (the build script empties it first): neither may clean it.
export default defineConfig([
  libraryBuild({
    clean: false,
    // `import.meta.url` in the CJS build: postgres/pool.ts resolves the optional `pg` from it.
    shims: true,
  }),
  libraryBuild({
    // The conformance suite ships as `@tminus/store/conformance`, so a third-party adapter runs
    // exactly the suite ours pass. vitest and fast-check stay the user's (optional peers).
    entry: { conformance: "test/store-suite.ts" },
    external: ["vitest", "fast-check"],
    clean: false,
    esbuildPlugins: [
      {
        // The suite checks `instanceof StoreError`: it must be the package's own class, not a
        // copy bundled into this entry, so the contract comes from the main entry at run time.
        name: "contract-from-main-entry",
        setup(build) {
          build.onResolve({ filter: /(^|\/)src\/contract$/ }, () => ({
            path: "@tminus/store",
            external: true,
          }));
        },
      },
    ],
  }),
]);
