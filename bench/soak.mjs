// Soak: does the server's memory settle under a long mixed load, and come back down after it?
//
// Starts a real `tminus serve` (SQLite file in a temp dir, its own ports, the /metrics listener
// on) in its own process with serve's defaults (no V8 flags), and sends it N mixed requests from
// this process at a fixed concurrency on keep-alive connections: API status, GET timer, list
// timers, creates (with and without Idempotency-Key), public pages, embeds, countdown.json,
// GIFs and PNGs of distinct sizes and personalized deadlines (so most are rendered), and bad
// requests (malformed JSON, unknown and malformed ids, bad and missing keys, bad query params,
// oversized bodies, unknown paths). Distinct inputs on purpose: anything the server keeps per
// input (ids, sizes, recipients, query strings, keys, paths) shows up as growth.
//
// Every second it samples the server's RSS (/proc/<pid>/status VmRSS) and V8 heap
// (nodejs_heap_size_used_bytes from /metrics). It prints RSS and heap after warm-up, at the
// settle point (100,000 requests), every tenth of the run, at the end of the load and after
// the idle period, and checks:
//   1. after the settle point RSS grows by at most 10% (max of the checkpoints to the end);
//   2. `--idle-seconds` after the load, RSS is within 25% of where it was after warm-up.
//
//   npx -y pnpm@10 build && node bench/soak.mjs [--requests 1000000] [--concurrency 32]
//     [--idle-seconds 30] [--warmup 20000] [--settle 100000] [--frames-max 10] [--log-level warn] [--json]
//   node bench/soak.mjs --requests 100000     # quick iteration (warm-up 10k, settle 30k)
import { execFileSync, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { signPersonalizedParams } from "../packages/core/dist/index.js";

const { values } = parseArgs({
  options: {
    requests: { type: "string", default: "1000000" },
    concurrency: { type: "string", default: "32" },
    "idle-seconds": { type: "string", default: "30" },
    warmup: { type: "string" },
    settle: { type: "string" },
    // `info` (serve's default) writes a line per request into a pipe this process drains.
    "log-level": { type: "string", default: "warn" },
    // Frames of the distinct GIFs cycle from 1 to this (60: full animations; fewer: a faster run).
    "frames-max": { type: "string", default: "10" },
    json: { type: "boolean", default: false },
  },
});
const REQUESTS = Number(values.requests);
const CONCURRENCY = Number(values.concurrency);
const IDLE_SECONDS = Number(values["idle-seconds"]);
const WARMUP = Number(values.warmup ?? Math.min(20_000, Math.round(REQUESTS / 10)));
const SETTLE = Number(values.settle ?? Math.min(100_000, Math.round(REQUESTS * 0.3)));
const STEP = Math.max(1, Math.round(REQUESTS / 10));

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const cli = here("../packages/cli/dist/cli.js");
const dir = mkdtempSync(join(tmpdir(), "tminus-soak-"));
const db = join(dir, "soak.db");
const config = join(dir, "config.json");
// Limits far above the load: the soak measures memory, not refusals.
writeFileSync(
  config,
  JSON.stringify({ plans: { starter: { requests_per_minute: 1e9, new_timers_per_cycle: 1e9 } } }),
);
const MB = 1024 * 1024;
const round1 = (x) => Math.round(x * 10) / 10;

/** Resident set of a process in bytes (VmRSS), or null once it is gone. */
function rssOf(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

async function metricsOf(url) {
  const text = await (await fetch(url)).text();
  const out = new Map();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

/** `tminus serve` in its own process, resolved once it listens (and its metrics listener). */
function serve() {
  const child = spawn(
    process.execPath,
    [cli, "serve", "--port", "0", "--metrics-port", "0", "--no-worker", "--db", db].concat([
      "--config",
      config,
      "--log-level",
      values["log-level"],
      "--log-format",
      "json",
    ]),
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  return new Promise((resolve, reject) => {
    let out = "";
    let found = false;
    child.stdout.on("data", (c) => {
      if (found) return; // drained, never kept
      out += c;
      const api = /listening on (http:\/\/\S+)/.exec(out);
      const metrics = /metrics on (http:\/\/\S+)/.exec(out);
      if (api && metrics) {
        found = true;
        resolve({ child, url: api[1], metricsUrl: metrics[1] });
      }
    });
    child.once("exit", (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
}

const key = JSON.parse(
  execFileSync(
    process.execPath,
    [cli, "keys", "create", "--env", "production", "--account", "soak", "--db", db].concat([
      "--config",
      config,
      "--json",
    ]),
    { encoding: "utf8" },
  ),
);
const AUTH = `Bearer ${key.secret}`;

const server = await serve();
const base = server.url;
const pid = server.child.pid;
// The server never outlives the bench, however it ends.
process.on("exit", () => server.child.kill("SIGKILL"));

async function api(method, path, body, headers = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: AUTH, "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (res.status >= 300)
    throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}
async function published(body) {
  const timer = await api("POST", "/api/v1/timers", body, { "idempotency-key": randomUUID() });
  if (timer.status === "published") return timer;
  return api("POST", `/api/v1/timers/${timer.id}/publish`, undefined, {
    "if-match": timer.revision,
  });
}
const fixed = await published({ name: "Soak", type: "fixed", deadline_at: "2030-01-01T00:00:00Z" });
const personal = await published({
  name: "Soak personal",
  type: "personalized",
  personalization: { source: "deadline", require_signature: true },
});

// The mix, per 100 requests. GIFs are the expensive part: their share keeps a 1M run in minutes.
const now0 = Math.floor(Date.now() / 1000);
const CREATE = JSON.stringify({ name: "Soak", type: "fixed", deadline_at: "2030-01-01T00:00:00Z" });
const BIG = "x".repeat(70_000); // over max_body_bytes (64 KiB)
const hex = (i) => i.toString(16).padStart(12, "0");
const uuidOf = (i) => `0190a000-0000-7000-8000-${hex(i)}`;
// Sizes and frame counts drawn from fixed sets: every size's atlas is built once and then
// reused (as in a real campaign, a few sizes), while every deadline is a new picture. The raw
// widths are distinct (the server snaps them to 20 px); `--frames-max` caps the animations.
const WIDTHS = [137, 240, 301, 440, 600, 615, 720, 900, 1200];
const FRAMES = Array.from({ length: Number(values["frames-max"]) }, (_, k) => k + 1);
const MIX = [
  // [share, label, build(i) -> { method, path, headers?, body? }]
  [30, "API status", () => ({ path: `/api/v1/timers/${fixed.id}/status`, auth: true })],
  [8, "GET timer", () => ({ path: `/api/v1/timers/${fixed.id}`, auth: true })],
  [4, "list timers", (i) => ({ path: `/api/v1/timers?limit=${1 + (i % 20)}`, auth: true })],
  // Without the key POST /timers is refused (400 missing_field): a bad request that parses.
  [
    3,
    "create, no Idempotency-Key",
    () => ({ method: "POST", path: "/api/v1/timers", auth: true, body: CREATE }),
  ],
  [
    3,
    "create + Idempotency-Key",
    (i) => ({
      method: "POST",
      path: "/api/v1/timers",
      auth: true,
      body: CREATE,
      // Half repeat a key (a replay), half are new.
      headers: { "idempotency-key": `soak-${i % 2 ? i : i % 1000}` },
    }),
  ],
  [8, "public page", (i) => ({ path: `/t/${fixed.id}?r=v${i}` })],
  [4, "embed", (i) => ({ path: `/t/${fixed.id}/embed?r=v${i}` })],
  [3, "countdown.json", () => ({ path: `/t/${fixed.id}/countdown.json` })],
  [
    3,
    "GIF, distinct deadline and size",
    (i) => {
      const deadline = String(now0 + 86_400 + i * 7);
      const sig = signPersonalizedParams(personal.signing_secret, { deadline });
      const width = WIDTHS[i % WIDTHS.length];
      return {
        path: `/t/${personal.id}/countdown.gif?deadline=${deadline}&sig=${sig}&width=${width}&frames=${FRAMES[i % FRAMES.length]}&r=u${i}`,
      };
    },
  ],
  [
    2,
    "PNG, distinct size",
    (i) => ({
      path: `/t/${fixed.id}/countdown.png?width=${WIDTHS[(i * 7) % WIDTHS.length]}&scale=${1 + (i % 2)}&variant=${i % 3 ? "light" : "dark"}`,
    }),
  ],
  [3, "GIF, shared", () => ({ path: `/t/${fixed.id}/countdown.gif` })],
  [4, "unknown timer id", (i) => ({ path: `/api/v1/timers/${uuidOf(i)}/status`, auth: true })],
  [2, "malformed timer id", (i) => ({ path: `/api/v1/timers/not-a-uuid-${i}`, auth: true })],
  [
    3,
    "malformed JSON",
    (i) => ({ method: "POST", path: "/api/v1/timers", auth: true, body: `{"name": "x${i}",` }),
  ],
  [4, "bad key", (i) => ({ path: `/api/v1/timers/${fixed.id}/status`, key: `tm_live_bad${i}` })],
  [2, "no key", () => ({ path: `/api/v1/timers/${fixed.id}/status` })],
  [
    3,
    "bad query param",
    (i) => ({ path: `/api/v1/timers?limit=abc${i}&status=nope${i}`, auth: true }),
  ],
  [2, "bad image param", (i) => ({ path: `/t/${fixed.id}/countdown.gif?width=${5000 + i}` })],
  [1, "oversized body", () => ({ method: "POST", path: "/api/v1/timers", auth: true, body: BIG })],
  [4, "unknown path", (i) => ({ path: `/api/v1/nothing-${i}/x${i % 97}?q=${i}` })],
  [2, "unknown public path", (i) => ({ path: `/t/${uuidOf(i)}/countdown.gif?r=${i}` })],
  [2, "other path", (i) => ({ path: `/random/${i}` })],
];
const TABLE = [];
for (const [share, label, build] of MIX)
  for (let k = 0; k < share; k++) TABLE.push({ label, build });
if (TABLE.length !== 100) throw new Error(`the mix must add up to 100, not ${TABLE.length}`);
// A fixed shuffle so the kinds interleave.
for (let i = TABLE.length - 1, s = 7; i > 0; i--) {
  s = (s * 1103515245 + 12345) & 0x7fffffff;
  const j = s % (i + 1);
  [TABLE[i], TABLE[j]] = [TABLE[j], TABLE[i]];
}

// --- sampling -------------------------------------------------------------------------------
const samples = []; // { t, done, rss, heap }
const checkpoints = []; // { at, label, rss, heap }
let done = 0;
const statuses = new Map(); // label -> Map(status -> count)
const t0 = performance.now();
let lastHeap = null;
async function heapNow() {
  try {
    const m = await metricsOf(server.metricsUrl);
    lastHeap = m.get("nodejs_heap_size_used_bytes") ?? lastHeap;
  } catch {}
  return lastHeap;
}
async function sample() {
  const rss = rssOf(pid);
  const heap = await heapNow();
  const s = { t: (performance.now() - t0) / 1000, done, rss, heap };
  samples.push(s);
  return s;
}
const ticker = setInterval(sample, 1000);
async function checkpoint(label) {
  const s = await sample();
  checkpoints.push({ label, ...s });
  if (!values.json) {
    console.error(
      `  ${label.padEnd(16)} ${String(s.done).padStart(8)} req  RSS ${round1(s.rss / MB)} MB  heap ${round1(s.heap / MB)} MB  ${Math.round(s.t)} s  load ${loadavg()[0].toFixed(1)}`,
    );
  }
}

// --- load -----------------------------------------------------------------------------------
const marks = new Set([WARMUP, SETTLE]);
for (let m = STEP; m < REQUESTS; m += STEP) marks.add(m);
const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
let next = 0;
let errors = 0;
const pendingMarks = [];

function send(i) {
  const { label, build } = TABLE[i % 100];
  const spec = build(i);
  const headers = { ...(spec.headers ?? {}) };
  if (spec.auth) headers.authorization = AUTH;
  if (spec.key) headers.authorization = `Bearer ${spec.key}`;
  if (spec.body !== undefined) {
    headers["content-type"] = "application/json";
    headers["content-length"] = Buffer.byteLength(spec.body);
  }
  return new Promise((resolve) => {
    const count = (status) => {
      let byStatus = statuses.get(label);
      if (!byStatus) {
        byStatus = new Map();
        statuses.set(label, byStatus);
      }
      byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
      done++;
      if (marks.has(done)) {
        const name = done === WARMUP ? "warm-up" : done === SETTLE ? "settle" : `${done / 1000}k`;
        pendingMarks.push(checkpoint(name));
      }
      resolve();
    };
    const req = request(
      `${base}${spec.path}`,
      { method: spec.method ?? "GET", headers, agent, timeout: 120_000 },
      (res) => {
        res.resume();
        res.on("end", () => count(res.statusCode));
      },
    );
    req.on("error", (e) => {
      errors++;
      count(`error ${e.code ?? e.message}`);
    });
    req.end(spec.body);
  });
}
async function worker() {
  while (next < REQUESTS) await send(next++);
}

if (!values.json) {
  console.error(
    `soak: ${REQUESTS} requests at concurrency ${CONCURRENCY}, warm-up ${WARMUP}, settle ${SETTLE}, idle ${IDLE_SECONDS} s; ${cpus().length} cores, load ${loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")}`,
  );
  console.error(`  mix per 100: ${MIX.map(([share, label]) => `${label} ${share}`).join(", ")}`);
}
const loadAtStart = loadavg();
await checkpoint("start");
await Promise.all(Array.from({ length: CONCURRENCY }, worker));
const loadSeconds = (performance.now() - t0) / 1000;
await Promise.all(pendingMarks);
await checkpoint("end of load");
agent.destroy();
const loadAtEnd = loadavg();
await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
await checkpoint(`idle ${IDLE_SECONDS} s`);
clearInterval(ticker);
const finalMetrics = await metricsOf(server.metricsUrl);
server.child.kill("SIGTERM");
await new Promise((r) => server.child.once("exit", r));
rmSync(dir, { recursive: true, force: true });

// --- verdict --------------------------------------------------------------------------------
const at = (label) => checkpoints.find((c) => c.label === label);
const warm = at("warm-up");
const settle = at("settle");
const after = checkpoints.filter((c) => c.done >= SETTLE && !c.label.startsWith("idle"));
const peakAfter = Math.max(...after.map((c) => c.rss));
const idle = checkpoints.at(-1);
const growth = peakAfter / settle.rss - 1;
// The end of the load against the settle point: the trend without the render bursts' peaks.
const endGrowth = at("end of load").rss / settle.rss - 1;
const idleVsWarm = idle.rss / warm.rss - 1;
const pass1 = growth <= 0.1;
const pass2 = Math.abs(idleVsWarm) <= 0.25;
const cacheGauges = [...finalMetrics]
  .filter(([k]) => /cache|_kept|entries/.test(k) && !k.includes("_total"))
  .map(([k, v]) => ({ metric: k, value: v }));
const result = {
  requests: REQUESTS,
  concurrency: CONCURRENCY,
  load_seconds: round1(loadSeconds),
  requests_per_second: Math.round(REQUESTS / loadSeconds),
  load_average_start: loadAtStart.map((x) => round1(x)),
  load_average_end_of_load: loadAtEnd.map((x) => round1(x)),
  client_errors: errors,
  checkpoints: checkpoints.map((c) => ({
    label: c.label,
    requests: c.done,
    seconds: round1(c.t),
    rss_mb: round1(c.rss / MB),
    heap_mb: round1(c.heap / MB),
  })),
  peak_rss_mb: round1(Math.max(...samples.map((s) => s.rss ?? 0)) / MB),
  criteria: {
    rss_growth_after_settle: { value: round1(growth * 100), limit: 10, pass: pass1 },
    rss_end_vs_settle: round1(endGrowth * 100),
    idle_vs_warmup: { value: round1(idleVsWarm * 100), limit: 25, pass: pass2 },
  },
  statuses: Object.fromEntries(
    [...statuses].map(([label, m]) => [label, Object.fromEntries([...m].sort())]),
  ),
  cache_gauges: cacheGauges,
  samples: samples.map((s) => [round1(s.t), s.done, round1(s.rss / MB), round1(s.heap / MB)]),
};

if (values.json) {
  console.log(JSON.stringify(result, null, 2));
} else {
  console.log(
    `\n${REQUESTS} requests in ${result.load_seconds} s (${result.requests_per_second}/s), concurrency ${CONCURRENCY}; load average at the start ${result.load_average_start.join(" ")}, at the end of the load ${result.load_average_end_of_load.join(" ")}`,
  );
  console.log("\n| point | requests | s | RSS MB | heap used MB |");
  console.log("| --- | ---: | ---: | ---: | ---: |");
  for (const c of result.checkpoints) {
    console.log(`| ${c.label} | ${c.requests} | ${c.seconds} | ${c.rss_mb} | ${c.heap_mb} |`);
  }
  console.log(`\npeak RSS (1 s samples) ${result.peak_rss_mb} MB`);
  console.log(
    `RSS growth after the settle point (${SETTLE}), highest checkpoint: ${round1(growth * 100)}% (limit 10%): ${pass1 ? "PASS" : "FAIL"}; end of load vs settle point: ${round1(endGrowth * 100)}%`,
  );
  console.log(
    `RSS ${IDLE_SECONDS} s after the load vs after warm-up: ${round1(idleVsWarm * 100)}% (limit ±25%): ${pass2 ? "PASS" : "FAIL"}`,
  );
  console.log("\nanswers by kind:");
  for (const [label, m] of Object.entries(result.statuses)) {
    console.log(
      `  ${label}: ${Object.entries(m)
        .map(([s, n]) => `${s} ${n}`)
        .join(", ")}`,
    );
  }
  console.log("\ncache gauges at the end:");
  for (const g of cacheGauges) console.log(`  ${g.metric} ${g.value}`);
}
process.exitCode = pass1 && pass2 ? 0 : 1;
