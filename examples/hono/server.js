// tminus under /countdown in a Hono app on Node (@hono/node-server).
import { serve } from "@hono/node-server";
import { createHandler } from "@tminus/http";
import { sqliteStore } from "@tminus/store/sqlite";
import { Hono } from "hono";

const store = sqliteStore({ path: process.env.TMINUS_DB ?? "tminus-example.db" });
// Hono passes the full URL: basePath says where the handler is mounted.
const handler = createHandler({ store, basePath: "/countdown" });

const app = new Hono();
app.get("/health", (c) => c.json({ ok: true }));
// c.req.raw is the untouched Request: its body is still there for the handler.
app.all("/countdown/*", (c) => handler(c.req.raw));

const server = serve(
  { fetch: app.fetch, port: Number(process.env.PORT ?? 3000), hostname: "127.0.0.1" },
  ({ port }) =>
    console.log(`example app listening on http://127.0.0.1:${port} (tminus at /countdown)`),
);
const stop = () =>
  server.close(async () => {
    await handler.close();
    await store.close();
    process.exit(0);
  });
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
