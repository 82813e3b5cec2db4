/** @type {import("next").NextConfig} */
export default {
  // Loaded by Node as they are, never bundled: tminus starts render threads from its own
  // files and opens SQLite through a native module.
  serverExternalPackages: [
    "@tminus/core",
    "@tminus/http",
    "@tminus/render",
    "@tminus/store",
    "@tminus/webhooks",
  ],
};
