import { defineConfig } from "tsup";
import { libraryBuild } from "../../tsup.base";

// import.meta.url locates the fonts, gifenc and the render pool's worker script
// from the CJS build too. The worker is an entry of its own: dist/worker.{js,cjs}.
export default defineConfig(
  libraryBuild({ entry: ["src/index.ts", "src/worker.ts"], shims: true }),
);
