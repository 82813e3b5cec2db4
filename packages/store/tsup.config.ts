import { defineConfig } from "tsup";
import { libraryBuild } from "../../tsup.base";

// Two builds into one dist/ (the build script empties it first): neither may clean it.
export default defineConfig([
  libraryBuild({
    // The contract, and each adapter as an entry of its own, so an application loads only the
    // driver it uses. One build with shared chunks (CommonJS too): StoreError and the rest of
    // the contract are one class in every entry, so `instanceof` holds across them.
    entry: {
      index: "src/index.ts",
      sqlite: "src/sqlite/index.ts",
      postgres: "src/postgres/index.ts",
      // `tminus copy`/`backup`/`restore`: both adapters' tables, for the CLI; an entry of its own
      // so the main entry never loads a driver.
      copy: "src/copy/index.ts",
    },
    splitting: true,
    clean: false,
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
