// tminus under /countdown in a Fastify 5 app that parses JSON for its own routes.
import { createHandler } from "@tminus/http";
import { tminusFastify } from "@tminus/http/fastify";
import { sqliteStore } from "@tminus/store/sqlite";
import Fastify from "fastify";

const store = sqliteStore({ path: process.env.TMINUS_DB ?? "tminus-example.db" });
const handler = createHandler({ store });

const app = Fastify();
app.get("/health", async () => ({ ok: true }));
app.post("/orders", async (req, reply) => reply.code(201).send({ received: req.body }));
// The plugin keeps Fastify's body parsers off tminus's routes: the handler reads the raw body.
await app.register(tminusFastify, { handler, prefix: "/countdown" });
app.addHook("onClose", async () => {
  await handler.close();
  await store.close();
});

const url = await app.listen({ port: Number(process.env.PORT ?? 3000), host: "127.0.0.1" });
console.log(`example app listening on ${url} (tminus at /countdown)`);
const stop = () => app.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
