import type { Options } from "tsup";

/**
 * The build every package shares: ESM + CJS with `.d.ts`, source maps, Node 20. A package's
 * tsup.config.ts passes only what differs.
 */
export function libraryBuild(overrides: Options = {}): Options {
  return {
    entry: ["src/index.ts"],
    format: ["esm", "cjs"],
    dts: true,
    clean: true,
    sourcemap: true,
    target: "node20",
    ...overrides,
  };
}
