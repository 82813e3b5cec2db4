// next.config.mjs
/** @type {import("next").NextConfig} */
export default {
  // Loaded by Node from node_modules, never bundled: tminus starts render threads from its own
  // files, reads its fonts at run time and opens SQLite through a native module.
  serverExternalPackages: [
    "@tminus/admin",
    "@tminus/core",
    "@tminus/http",
    "@tminus/observability",
    "@tminus/render",
    "@tminus/store",
    "@tminus/webhooks",
  ],
};
