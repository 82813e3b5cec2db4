// TypeDoc options for the library reference: one page per package entry point, written as
// markdown into docs/reference/library/ (generated, not committed) for VitePress to render.
// Run by `pnpm docs:api`, which `pnpm docs` and `pnpm docs:build` call first.

/** Each published entry point and the name users import it by. */
export const ENTRY_POINTS = {
  "packages/core/src/index.ts": "@tminus/core",
  "packages/store/src/index.ts": "@tminus/store",
  "packages/store/src/sqlite/index.ts": "@tminus/store/sqlite",
  "packages/store/src/postgres/index.ts": "@tminus/store/postgres",
  "packages/store/src/copy/index.ts": "@tminus/store/copy",
  "packages/store/test/store-suite.ts": "@tminus/store/conformance",
  "packages/render/src/index.ts": "@tminus/render",
  "packages/webhooks/src/index.ts": "@tminus/webhooks",
  "packages/admin/src/index.ts": "@tminus/admin",
  "packages/observability/src/index.ts": "@tminus/observability",
  "packages/http/src/index.ts": "@tminus/http",
  "packages/http/src/front-ends/fastify.ts": "@tminus/http/fastify",
  "packages/dashboard/src/index.ts": "@tminus/dashboard",
  "packages/cli/src/index.ts": "tminus",
};

/** @type {Partial<import("typedoc").TypeDocOptions & import("typedoc-plugin-markdown").PluginOptions>} */
export default {
  // Paths are relative to this file.
  entryPoints: Object.keys(ENTRY_POINTS).map((file) => `../../${file}`),
  entryPointStrategy: "resolve",
  tsconfig: "./tsconfig.typedoc.json",
  plugin: ["typedoc-plugin-markdown", "./typedoc-entry-names.mjs"],
  out: "../reference/library",
  readme: "./library-index.md",
  name: "Library API",
  entryFileName: "index",
  outputFileStrategy: "modules",
  flattenOutputFiles: true,
  excludeScopesInPaths: true,
  mergeReadme: true,
  hidePageHeader: true,
  hideBreadcrumbs: true,
  // Explicit anchors: TypeDoc's own, whatever the heading slugs, so its links always land.
  useHTMLAnchors: true,
  useCodeBlocks: true,
  parametersFormat: "table",
  interfacePropertiesFormat: "table",
  classPropertiesFormat: "table",
  typeDeclarationFormat: "table",
  excludePrivate: true,
  excludeInternal: true,
  excludeExternals: true,
  disableSources: true,
  sort: ["kind", "alphabetical"],
  // `pnpm typecheck` checks the types; TypeDoc only reads them (this halves its time).
  skipErrorChecking: true,
  logLevel: "Warn",
  // Undocumented exports are the source's business (the architecture check and review catch
  // them), not a reason to fail the docs build.
  validation: { notExported: false, invalidLink: true, notDocumented: false },
  treatWarningsAsErrors: false,
};
