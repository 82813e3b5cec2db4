import type { Options } from "tsup";

/**
 * The build every package shares: ESM + CJS with `.d.ts`, source maps, Node 20. A package's
 * tsup.config.ts passes only what differs.
 *
 * `shims`: the sources find optional peers and their own files with
 * `createRequire(import.meta.url)`; in the CommonJS build `import.meta.url` is otherwise
 * `undefined` (createRequire throws ERR_INVALID_ARG_VALUE, or a guarded load gives up
 * silently), so tsup derives it from `__filename` there.
 */
export function libraryBuild(overrides: Options = {}): Options {
  return {
    entry: ["src/index.ts"],
    format: ["esm", "cjs"],
    dts: true,
    clean: true,
    sourcemap: true,
    target: "node20",
    shims: true,
    ...overrides,
  };
}
