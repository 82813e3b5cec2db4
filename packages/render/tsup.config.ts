import { fileURLToPath } from "node:url";
import { defineConfig } from "tsup";
import { libraryBuild } from "../../tsup.base";

const cjsWorker = fileURLToPath(new URL("./src/default-worker-cjs.ts", import.meta.url));

// import.meta.url locates the fonts, gifenc and satori from the CJS build too (the shared
// build's shims). The worker is an entry of its own, ES module only: dist/worker.js runs the
// threads of both builds, and it is never imported, so it has no types.
export default defineConfig([
  libraryBuild({
    esbuildPlugins: [
      {
        // The CommonJS build names the worker's file from __dirname (see default-worker.ts).
        name: "default-worker-per-format",
        setup(build) {
          if (build.initialOptions.format !== "cjs") return;
          build.onResolve({ filter: /\/default-worker$/ }, () => ({ path: cjsWorker }));
        },
      },
    ],
  }),
  libraryBuild({ entry: ["src/worker.ts"], format: ["esm"], dts: false, clean: false }),
]);
