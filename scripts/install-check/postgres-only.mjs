// Run in a folder where the packed @tminus/core, store, webhooks and http are installed with
// plain npm beside pg, and neither @tminus/render nor better-sqlite3 is: an app on PostgreSQL
// (TMINUS_TEST_PG_URL, a fresh database made and dropped here). No native module is
// installed; the API works; the public pages and images answer 503 with the error envelope
// and how to install the renderer, said once in the log.
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { join } from "node:path";
import { createAdmin, createHandler, createNodeListener } from "@tminus/http";
import { postgresStore } from "@tminus/store/postgres";
import pg from "pg";

const require = createRequire(import.meta.url);
// The CommonJS entries load too.
assert.equal(typeof require("@tminus/http").createHandler, "function");
assert.equal(typeof require("@tminus/store/postgres").postgresStore, "function");

assert.throws(() => require.resolve("better-sqlite3"), { code: "MODULE_NOT_FOUND" });
/** Every compiled Node addon (`*.node`) under a folder. */
const addons = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return addons(path);
    return entry.name.endsWith(".node") ? [path] : [];
  });
assert.deepEqual(addons("node_modules"), [], "a PostgreSQL-only app installs no native module");

assert.ok(process.env.TMINUS_TEST_PG_URL, "TMINUS_TEST_PG_URL names the PostgreSQL server");
/** The test server's URL with another database name. */
const database = (name) => {
  const url = new URL(process.env.TMINUS_TEST_PG_URL);
  url.pathname = `/${name}`;
  return url.toString();
};
const name = `tminus_install_${process.pid}_${Date.now()}`;
const admin = new pg.Client({ connectionString: database("postgres") });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);

const store = postgresStore({ connectionString: database(name) });
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
await admin.query(`DROP DATABASE ${name}`);
await admin.end();
console.log(
  "postgres-only: no native module installed; the API works on PostgreSQL without @tminus/render; public routes answer 503",
);
