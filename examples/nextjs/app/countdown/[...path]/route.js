// tminus under /countdown in a Next.js App Router app: one catch-all route handler.
import { createHandler } from "@tminus/http";
import { sqliteStore } from "@tminus/store/sqlite";

// SQLite and the render threads need Node, and every answer is live (never prerendered).
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// One handler, so one database connection and one render pool, per server process: `next dev`
// evaluates this module again on every edit, while globalThis lives as long as the process.
// Made on the first request, not on import: `next build` imports the module too.
const HANDLER = Symbol.for("tminus.nextjs.handler");

function tminus() {
  globalThis[HANDLER] ??= createHandler({
    store: sqliteStore({ path: process.env.TMINUS_DB ?? "tminus-example.db" }),
    // Next passes the full path: basePath says where the handler is mounted.
    basePath: "/countdown",
    // Next hands route handlers a request URL on `localhost` (the address it listens on). It
    // sets X-Forwarded-Host and X-Forwarded-Proto from the client's request (keeping a
    // proxy's), so absolute URLs follow the host the client asked for. With a fixed public
    // URL, set `config: { base_url }` instead.
    trustProxy: true,
  });
  return globalThis[HANDLER];
}

const handler = (request) => tminus()(request);

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
