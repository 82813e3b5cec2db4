// Run in a folder where the packed @tminus/core, store, webhooks and http are installed with
// plain npm, and @tminus/render is not: the API works; the public pages and images answer
// 503 with the error envelope and how to install the renderer, said once in the log.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { createAdmin, createHandler, createNodeListener } from "@tminus/http";
import { sqliteStore } from "@tminus/store";

// The CommonJS entry loads too.
assert.equal(typeof createRequire(import.meta.url)("@tminus/http").createHandler, "function");

const store = sqliteStore({ path: "api-only.db" });
const logged = [];
const handler = createHandler({ store, onError: (error) => logged.push(error) });
const server = createServer(createNodeListener(handler));
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const base = `http://127.0.0.1:${server.address().port}`;

const key = await createAdmin({ store }).issueKey({ account: "check", environment: "production" });
const headers = { authorization: `Bearer ${key.secret}`, "content-type": "application/json" };
const created = await fetch(`${base}/api/v1/timers`, {
  method: "POST",
  headers: { ...headers, "idempotency-key": "install-check" },
  body: JSON.stringify({ type: "fixed", name: "Launch", deadline_at: "2030-01-01T00:00:00Z" }),
});
assert.equal(created.status, 201);
const timer = (await created.json()).data;
const published = await fetch(`${base}/api/v1/timers/${timer.id}/publish`, {
  method: "POST",
  headers: { ...headers, "if-match": timer.revision },
});
assert.equal(published.status, 200);
const { urls } = (await published.json()).data;

for (const url of [urls.gif, urls.page, urls.embed_script]) {
  const res = await fetch(url);
  assert.equal(res.status, 503, url);
  const body = await res.json();
  assert.equal(body.error.code, "render_unavailable");
  assert.match(body.error.message, /npm install @tminus\/render/);
  assert.equal(body.request_id, res.headers.get("x-request-id"));
}
assert.equal(logged.length, 1, "the missing renderer is logged once");

const status = await fetch(`${base}/api/v1/timers/${timer.id}/status`, { headers });
assert.equal(status.status, 200, "the API keeps working");

server.close();
await handler.close();
await store.close();
console.log("api-only: the API works without @tminus/render; public routes answer 503");
