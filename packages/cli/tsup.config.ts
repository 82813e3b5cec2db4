import { defineConfig } from "tsup";
import { libraryBuild } from "../../tsup.base";

// The binary is ESM only; the library entry (startServer) gets types.
export default defineConfig(
  libraryBuild({
    entry: ["src/cli.ts", "src/index.ts"],
    format: ["esm"],
    dts: { entry: "src/index.ts" },
  }),
);
