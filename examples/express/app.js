// An existing Express app that mounts the tminus API under /countdown.
import { createHandler, createNodeListener } from "@tminus/http";
import { sqliteStore } from "@tminus/store/sqlite";
import express from "express";

/**
 * Builds the app. Mount tminus BEFORE express.json() (or scope the parser to your own routes):
 * the handler reads the raw body itself, with its own size limit.
 */
export function createApp({ dbPath }) {
  const store = sqliteStore({ path: dbPath });
  const tminus = createHandler({ store });

  const app = express();
  app.get("/health", (_req, res) => res.json({ ok: true }));
  // Express strips "/countdown" from req.url, so the API answers at /countdown/api/v1/...
  app.use("/countdown", createNodeListener(tminus));
  app.use(express.json());
  app.post("/orders", (req, res) => res.status(201).json({ received: req.body }));

  return {
    app,
    async close() {
      await tminus.close();
      await store.close();
    },
  };
}
