// tminus under /countdown on a plain node:http server, next to the app's own routes.
import { createServer } from "node:http";
import { createHandler, createNodeListener, handleClientError } from "@tminus/http";
import { sqliteStore } from "@tminus/store/sqlite";

const store = sqliteStore({ path: process.env.TMINUS_DB ?? "tminus-example.db" });
// node:http passes the full path: basePath says where the handler is mounted.
const handler = createHandler({ store, basePath: "/countdown" });
const tminus = createNodeListener(handler);

const server = createServer((req, res) => {
  // Paths that are not tminus's go to the callback: the app's own routes.
  tminus(req, res, () => {
    const ok = req.url === "/health";
    res.writeHead(ok ? 200 : 404, { "content-type": "application/json" });
    res.end(JSON.stringify(ok ? { ok } : { error: "not found" }));
  });
});
// Requests Node's parser refuses get tminus's error envelope too.
server.on("clientError", handleClientError);

server.listen(Number(process.env.PORT ?? 3000), "127.0.0.1", () => {
  const { port } = server.address();
  console.log(`example app listening on http://127.0.0.1:${port} (tminus at /countdown)`);
});
const stop = () =>
  server.close(async () => {
    await handler.close();
    await store.close();
    process.exit(0);
  });
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
