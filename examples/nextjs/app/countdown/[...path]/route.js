// tminus under /countdown in a Next.js App Router app: one catch-all route handler.
import { createHandler } from "@tminus/http";
import { sqliteStore } from "@tminus/store/sqlite";

// SQLite and the render threads need Node, and every answer is live (never prerendered).
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// One handler per server process: `next dev` re-evaluates this module on every edit.
globalThis.tminus ??= createHandler({
  store: sqliteStore({ path: process.env.TMINUS_DB ?? "tminus-example.db" }),
  // Next passes the full path: basePath says where the handler is mounted.
  basePath: "/countdown",
});
const handler = (request) => globalThis.tminus(request);

// Every method the API uses: Next answers 405 for any method a route does not export.
export {
  handler as GET,
  handler as HEAD,
  handler as POST,
  handler as PUT,
  handler as PATCH,
  handler as DELETE,
  handler as OPTIONS,
};
