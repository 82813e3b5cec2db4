// A node:http server for status-floor.mjs, in a process of its own: answers every request with
// the status route's answer built the cheapest way the specification allows, so what it costs
// over the bare server is the floor of the work any implementation of the route must do.
//
//   node bench/_floor-server.mjs <mode> <secret> <timer-id>
//
// Modes: `bare` (a fixed body, two headers: hot-path-ab.mjs's baseline), `image` (a fixed
// buffer of <secret> bytes, default 21,000, as `image/gif` with the headers an email image
// carries: same-timer-ab.mjs's baseline), `floor` (per request:
// the Bearer key parsed, hashed with SHA-256 and found in a Map, its digest compared in
// constant time, a per-key request counter, a UUIDv7 request id, the remaining time computed
// by @tminus/core, the envelope serialised, and the seven headers tminus answers with), and
// `floor+line` (floor plus one JSON request line to stdout, as `tminus serve` writes it at its
// default level).
import { timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import { hashApiKey } from "../packages/admin/dist/index.js";
import { formatInstant, statusFromTarget } from "../packages/core/dist/index.js";
import { uuidv7 } from "../packages/store/dist/index.js";

const [mode, secret, timerId] = process.argv.slice(2);
const target = Date.parse("2030-01-01T00:00:00Z");
const clock = {
  published_at: null,
  paused_at: null,
  paused_ms: 0,
  extended_seconds: 0,
  started_at: null,
};
const keys = new Map([[hashApiKey(secret), { id: "key", hash: Buffer.from(hashApiKey(secret)) }]]);
const counts = new Map();
const BEARER = /^Bearer ([^\s]+)$/;
const lines = mode === "floor+line" ? lineWriter() : null;

/**
 * Lines to stdout the way the CLI's log destination (packages/cli/src/log-destination.ts) sends
 * them: gathered into pieces of 4 KiB, or written after 200 ms.
 */
function lineWriter() {
  let pending = "";
  setInterval(() => {
    if (pending) process.stdout.write(pending);
    pending = "";
  }, 200).unref();
  return {
    write(text) {
      pending += text;
      if (pending.length >= 4096) {
        process.stdout.write(pending);
        pending = "";
      }
    },
  };
}

const bareBody = Buffer.from(
  JSON.stringify({ data: { object: "timer_status" }, request_id: uuidv7(Date.now()) }).padEnd(367),
);
const imageBody = mode === "image" ? Buffer.alloc(Number(secret) || 21_000, 7) : null;
const server = createServer((req, res) => {
  if (imageBody) {
    res.writeHead(200, {
      "content-type": "image/gif",
      "cache-control": "no-cache, max-age=0",
      "content-length": imageBody.byteLength,
      etag: '"bare-image-etag-of-27-chars-"',
    });
    res.end(imageBody);
    return;
  }
  if (mode === "bare") {
    res.writeHead(200, {
      "content-type": "application/json; charset=utf-8",
      "content-length": bareBody.byteLength,
    });
    res.end(bareBody);
    return;
  }
  const started = performance.now();
  const now = Date.now();
  const requestId = uuidv7(now);
  const m = BEARER.exec(req.headers.authorization ?? "");
  const hash = m ? hashApiKey(m[1]) : "";
  const key = keys.get(hash);
  if (!key || !timingSafeEqual(key.hash, Buffer.from(hash))) {
    res.writeHead(401).end();
    return;
  }
  const used = (counts.get(key.id) ?? 0) + 1;
  counts.set(key.id, used);
  const status = statusFromTarget(target, clock, now);
  const body = JSON.stringify({
    data: {
      object: "timer_status",
      timer_id: timerId,
      type: "fixed",
      status: "draft",
      state: status.state,
      remaining: status.remaining,
      ended: status.ended,
      target_at: formatInstant(target),
      server_time: formatInstant(now),
    },
    request_id: requestId,
  });
  res.writeHead(200, {
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
    "ratelimit-limit": "1000000000",
    "ratelimit-remaining": String(1e9 - used),
    "ratelimit-reset": String(Math.ceil(now / 60000) * 60),
    "x-request-id": requestId,
    "x-content-type-options": "nosniff",
    "content-length": String(Buffer.byteLength(body)),
  });
  res.end(body);
  lines?.write(
    `{"level":30,"time":${now},"pid":${process.pid},"request_id":"${requestId}","method":"GET","route":"/api/v1/timers/{id}/status","status":200,"duration_ms":${Math.round((performance.now() - started) * 1000) / 1000},"account_id":"${key.id}","environment":"production","msg":"request"}\n`,
  );
});
server.listen(0, "127.0.0.1", function () {
  console.log(`listening on http://127.0.0.1:${this.address().port}`);
});
