import { defineConfig } from "tsup";
import { libraryBuild } from "../../tsup.base";

// `@tminus/core/browser` is an entry of its own, whole in one file, so a page's bundler (or
// the embed script) takes only the countdown math and its formatting.
export default defineConfig(
  libraryBuild({ entry: { index: "src/index.ts", browser: "src/browser.ts" } }),
);
