// Run in a folder where every packed package is installed with plain npm: the handler on
// node:http serves a real GIF, @tminus/render renders one directly, and the Fastify entry loads.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { dashboard } from "@tminus/dashboard";
import { createAdmin, createHandler, createNodeListener } from "@tminus/http";
import { tminusFastify } from "@tminus/http/fastify";
import { renderGif } from "@tminus/render";
import { sqliteStore } from "@tminus/store/sqlite";
import Fastify from "fastify";

/** Width, height and frame count of a GIF, read from its bytes. */
function gifInfo(bytes) {
  assert.equal(Buffer.from(bytes.subarray(0, 6)).toString("latin1"), "GIF89a");
  const view = Buffer.from(bytes);
  let frames = 0;
  for (let i = 0; i < view.length - 1; i++) {
    // Graphic control extension: one per frame in our encoder.
    if (view[i] === 0x21 && view[i + 1] === 0xf9 && view[i + 2] === 0x04) frames++;
  }
  return { width: view.readUInt16LE(6), height: view.readUInt16LE(8), frames };
}

assert.equal(typeof tminusFastify, "function");
const direct = gifInfo(await renderGif({ remainingSeconds: 3600, frames: 3 }));
assert.deepEqual(direct, { width: 600, height: 160, frames: 3 });

const store = sqliteStore({ path: "full.db" });
const handler = createHandler({ store, mounts: [dashboard()] });
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
const gif = await fetch(`${urls.gif}?frames=2`);
assert.equal(gif.status, 200);
assert.equal(gif.headers.get("content-type"), "image/gif");
assert.deepEqual(gifInfo(new Uint8Array(await gif.arrayBuffer())), {
  width: 600,
  height: 160,
  frames: 2,
});

// The dashboard from its own tarball, mounted beside the API: its sign-in page answers.
const signIn = await fetch(`${base}/dashboard/sign-in`);
assert.equal(signIn.status, 200);
assert.match(await signIn.text(), /Sign in/);

// The Fastify plugin from the tarball: a POST reaches the handler with its body.
const app = Fastify();
await app.register(tminusFastify, { handler, prefix: "/countdown" });
const viaFastify = await app.inject({
  method: "POST",
  url: "/countdown/api/v1/timers",
  headers: { ...headers, "idempotency-key": "install-check-fastify" },
  payload: JSON.stringify({ type: "fixed", name: "Fastify", deadline_at: "2030-01-01T00:00:00Z" }),
});
assert.equal(viaFastify.statusCode, 201, viaFastify.body);
assert.match(viaFastify.headers.location, /\/countdown\/api\/v1\/timers\//);
await app.close();

server.close();
await handler.close();
await store.close();
console.log(
  "full: a timer created and its GIF served over node:http; renderGif works; the dashboard signs in; the Fastify plugin takes a POST",
);
