import { defineConfig } from "tsup";
import { libraryBuild } from "../../tsup.base";

// import.meta.url locates the fonts and gifenc from the CJS build too.
export default defineConfig(libraryBuild({ shims: true }));
