import { defineConfig } from "tsup";
import { libraryBuild } from "../../tsup.base";

// The binary is ESM only (it is run, not imported); the library entry (startServer and
// friends) is ESM and CommonJS with types, like every package.
export default defineConfig([
  libraryBuild({ entry: ["src/cli.ts"], format: ["esm"], dts: false }),
  libraryBuild({ entry: ["src/index.ts"], clean: false }),
]);
