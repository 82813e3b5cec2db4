// Benchmark (issue 27): N unique personalized email GIFs over HTTP against `renderMany` of the
// same number of images in one process, same run, both sides on equal terms.
//
// HTTP: a real `tminus serve --no-worker` on a SQLite file in its own process (default config
// unless `--server-threads`), started once, prepared, and warmed by an untimed burst of
// WARM images; each round asks IMAGES GIFs of one published personalized timer, each recipient
// its own signed `deadline`, CONCURRENCY at a time on keep-alive connections from this process.
// Only full animations count: a still (`X-Tminus-Degraded: still`) is counted apart and left
// out of the HTTP images/s.
// renderMany: one long-lived child process for the whole run, with a render pool made as the
// server makes its own (`tminus serve`'s default: one thread per CPU, at most 4, nice 10, the
// same queue and cache budgets; `--server-threads N` sets both), passed as `pool`, so the
// child's main thread only hands out work as the server's event loop does; warmed by an untimed
// batch of WARM images, then one timed batch per round. (renderMany's own default makes a pool
// per call, sized from the idle cores, and renders on the caller's thread too, all of it
// dropped at the end of the call: it cannot be warmed, and its thread count moves with the
// machine's load. `--many-default` measures that instead, on the same long-lived process.)
// Same timer (the same create body, so the same look, 600x160, 60 frames, and the same
// clamp to `max_seconds`), same kind of deadlines: each round and side takes its own slot of a
// grid of deadlines spread from 1 to 365 days ahead, so no image is ever rendered twice, on
// either side, and every round draws the same mix of day counts. Deadlines past the timer's
// `max_seconds` (366 days) would all show the same clamped time: the earlier version of this
// bench went past it from its second round on, and the server's image cache answered those
// rounds with one render per second.
// After each timed part (never during it) every image is decoded with omggif (all frames) and
// checked distinct from every other image of the run (sha1), on both sides.
// Rounds alternate the order (HTTP first, then renderMany first). Reported per round and as
// medians: the ratio (HTTP full images/s over renderMany images/s), the CPU per image of the
// server (all threads, and its event loop alone), of the load generator (this process), and
// of renderMany's process (all threads), which the machine's load moves less than wall time.
//
//   npx -y pnpm@10 build && node bench/images-over-http.mjs [--images 3000] [--concurrency 64]
//     [--rounds 5] [--server-threads N] [--warm-images 2000] [--many-default]
//     [--server-cpu-prof DIR] [--json]
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { createServer as createNetServer } from "node:net";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { join, resolve as resolvePath } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { signPersonalizedParams } from "../packages/core/dist/index.js";
import { checkGifs } from "./_gif-check.mjs";

const { values } = parseArgs({
  options: {
    images: { type: "string", default: "3000" },
    concurrency: { type: "string", default: "64" },
    rounds: { type: "string", default: "5" },
    "server-threads": { type: "string" },
    "warm-images": { type: "string", default: "2000" },
    "many-default": { type: "boolean", default: false },
    "server-cpu-prof": { type: "string" },
    json: { type: "boolean", default: false },
  },
});
const IMAGES = Number(values.images);
const CONCURRENCY = Number(values.concurrency);
const ROUNDS = Number(values.rounds);
const WARM = Number(values["warm-images"]);
const MANY_DEFAULT = values["many-default"];
// `tminus serve`'s default (serverThreads in packages/http/src/public/image-renderer.ts).
const THREADS =
  values["server-threads"] === undefined
    ? Math.max(1, Math.min(4, availableParallelism()))
    : Number(values["server-threads"]);
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const cli = here("../packages/cli/dist/cli.js");
const renderDist = here("../packages/render/dist/index.js");
const gifCheck = new URL("./_gif-check.mjs", import.meta.url).href;
const dir = mkdtempSync(join(tmpdir(), "tminus-http-images-"));
const db = join(dir, "bench.db");
const configFile = join(dir, "config.json");
const render =
  values["server-threads"] === undefined ? {} : { threads: Number(values["server-threads"]) };
writeFileSync(
  configFile,
  JSON.stringify({
    plans: { starter: { requests_per_minute: 1e9, new_timers_per_cycle: 1e9 } },
    render,
  }),
);
// The server's render defaults (packages/http/src/config.ts), for renderMany's pool.
const SERVER_POOL = { maxQueue: 64, atlasMb: 32, frameMb: 8 };
const TIMER = {
  name: "Trial ends",
  type: "personalized",
  personalization: { source: "deadline", require_signature: true },
};

const median = (xs) => {
  const s = [...xs].filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const r = (x, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;
const load = () => loadavg().map((x) => r(x, 1));
const log = (line) => {
  if (!values.json) console.error(line);
};

/** CPU seconds (user + system) of a process so far, all threads (main thread alone with `main`). */
function cpuSeconds(pid, main = false) {
  try {
    const file = main ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`;
    const fields = readFileSync(file, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** CPU seconds of each thread of a process so far, by thread id. */
function threadSeconds(pid) {
  const out = new Map();
  let tids = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8")
        .split(") ")[1]
        .split(" ");
      out.set(tid, (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return out;
}

/** The busiest threads' CPU milliseconds between two `threadSeconds`, descending, the main thread left out. */
function busiestThreads(pid, before, after, n = 4) {
  return [...after]
    .filter(([tid]) => tid !== String(pid))
    .map(([tid, s]) => (s - (before.get(tid) ?? 0)) * 1000)
    .sort((a, b) => b - a)
    .slice(0, n);
}

async function serve() {
  const prof = values["server-cpu-prof"];
  const nodeFlags = prof
    ? ["--cpu-prof", "--cpu-prof-dir", resolvePath(prof), "--cpu-prof-interval", "200"]
    : [];
  if (prof) mkdirSync(prof, { recursive: true });
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [...nodeFlags, cli, "serve", "--port", String(port), "--no-worker", "--db", db].concat([
      "--config",
      configFile,
      "--log-level",
      "warn",
    ]),
    // Nothing on stdout at warn (not even the listening line, since issue 38's logs): ready
    // is when /healthz answers.
    { stdio: ["ignore", "ignore", "inherit"] },
  );
  let exited = null;
  child.once("exit", (code) => {
    exited = code;
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (exited !== null) throw new Error(`server exited ${exited}`);
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { child, url };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the server did not answer /healthz within 60 s");
}

/** A port nothing listens on now (the server is told to take it). */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** The bodies `burst` kept, each in one buffer. */
const bodies = (list) =>
  list.map((b) => (b.chunks.length === 1 ? b.chunks[0] : Buffer.concat(b.chunks)));

/** Every URL once, CONCURRENCY at a time, on keep-alive connections; the bodies kept. */
async function burst(urls) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const out = { full: [], stills: [], other: {} };
  let next = 0;
  const one = () =>
    new Promise((resolve) => {
      const i = next++;
      if (i >= urls.length) return resolve();
      const req = request(urls[i], { agent }, (res) => {
        const chunks = [];
        let received = 0;
        res.on("data", (c) => {
          chunks.push(c);
          received += c.length;
        });
        res.on("end", () => {
          // Joined after the clock stops (bodies()): the load generator's CPU is the client's.
          const body = { chunks, length: received };
          const length = Number(res.headers["content-length"]);
          if (
            res.statusCode === 200 &&
            res.headers["content-type"] === "image/gif" &&
            body.length === length
          ) {
            if (res.headers["x-tminus-degraded"] === "still") out.stills.push(body);
            else out.full.push(body);
          } else {
            const label = `${res.statusCode} ${res.headers["content-type"]}${body.length === length ? "" : " (short body)"}`;
            out.other[label] = (out.other[label] ?? 0) + 1;
          }
          resolve(one());
        });
      });
      req.on("error", (error) => {
        const label = `error ${error.code ?? error.message}`;
        out.other[label] = (out.other[label] ?? 0) + 1;
        resolve(one());
      });
      req.end();
    });
  await Promise.all(Array.from({ length: CONCURRENCY }, one));
  agent.destroy();
  return out;
}

// renderMany's process, alive for the whole run: one JSON line in per batch ({ now, deadlines,
// timed }), one out ({ ms, cpuMs, ok, check }). With a pool made as the server makes its own,
// passed to every call (or, with "default", renderMany's own options: a pool per call).
const RENDER_MANY_CHILD = `
const [dist, check, mode, threads, maxQueue, atlasMb, frameMb, timerJson] = process.argv.slice(1);
const { createRenderPool, renderMany } = await import(dist);
const { checkGifs } = await import(check);
const { createInterface } = await import("node:readline");
const { readdirSync, readFileSync } = await import("node:fs");
// CPU ms of each thread but the main one, as the server's are read.
const threadMs = () => {
  const out = new Map();
  for (const tid of readdirSync("/proc/self/task")) {
    if (tid === String(process.pid)) continue;
    try {
      const f = readFileSync("/proc/self/task/" + tid + "/stat", "utf8").split(") ")[1].split(" ");
      out.set(tid, (Number(f[11]) + Number(f[12])) * 10);
    } catch {}
  }
  return out;
};
const timer = JSON.parse(timerJson);
const pool =
  mode === "pool"
    ? createRenderPool({
        threads: Number(threads),
        maxQueue: Number(maxQueue),
        cache: { atlasBytes: Number(atlasMb) * 1048576, frameBytes: Number(frameMb) * 1048576 },
      })
    : undefined;
await pool?.ready;
const seen = new Set();
for await (const line of createInterface({ input: process.stdin })) {
  const { now, deadlines } = JSON.parse(line);
  const jobs = deadlines.map((d) => ({ deadline: d * 1000 }));
  const images = [];
  let failed = null;
  const threads = threadMs();
  const cpu = process.cpuUsage();
  const t = performance.now();
  for await (const x of renderMany(jobs, { now, timer, pool })) {
    if (x.ok) images.push(x.bytes);
    else failed ??= x.error.message;
  }
  const ms = performance.now() - t;
  const used = process.cpuUsage(cpu);
  const busiest = [...threadMs()].map(([tid, ms]) => ms - (threads.get(tid) ?? 0)).sort((a, b) => b - a).slice(0, 4);
  const cpuMs = (used.user + used.system) / 1000;
  const result = { ms, cpuMs, busiest, ok: images.length, failed };
  result.check = checkGifs(images, seen);
  process.stdout.write(JSON.stringify(result) + "\\n");
}
await pool?.close();
`;

function renderManyProcess() {
  const child = spawn(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      RENDER_MANY_CHILD,
      renderDist,
      gifCheck,
      MANY_DEFAULT ? "default" : "pool",
      String(THREADS),
      String(SERVER_POOL.maxQueue),
      String(SERVER_POOL.atlasMb),
      String(SERVER_POOL.frameMb),
      JSON.stringify(TIMER),
    ],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    child,
    async batch(now, deadlines) {
      child.stdin.write(`${JSON.stringify({ now, deadlines })}\n`);
      const { value, done } = await lines.next();
      if (done) throw new Error("renderMany's process ended");
      const result = JSON.parse(value);
      if (result.ok !== deadlines.length)
        throw new Error(`renderMany: ${result.ok} ok of ${deadlines.length}: ${result.failed}`);
      return result;
    },
    async close() {
      child.stdin.end();
      await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}

const summary = {
  cpus: `${cpus().length} x ${cpus()[0]?.model ?? "?"}`,
  available_parallelism: availableParallelism(),
  node: process.version,
  images: IMAGES,
  concurrency: CONCURRENCY,
  rounds: ROUNDS,
  warm_images: WARM,
  server_threads: values["server-threads"] ?? `default (${THREADS})`,
  render_many: MANY_DEFAULT
    ? "renderMany's default options (a pool per call from the idle cores, the caller's thread too)"
    : `a pool like the server's (${THREADS} threads, nice 10), long-lived and warm, passed as \`pool\``,
  load_start: load(),
};
log(
  `${summary.cpus}, Node ${summary.node}; load average ${summary.load_start.join(", ")} at the start`,
);

// Deadlines: a grid of slots (the warm-up and each round, per side) interleaved over 1 to 365
// days ahead, within the timer's max_seconds (366 days), every one a distinct second.
const PER_SLOT = Math.max(IMAGES, WARM);
const SLOTS = 2 * (ROUNDS + 1);
const SPAN = 364 * 86_400;
const STEP = Math.floor(SPAN / (PER_SLOT * SLOTS));
// Two images must not show the same second left: a round never lasts as long as one step.
if (STEP < 120) throw new Error(`too many images for distinct deadlines (step ${STEP} s)`);
const start = Math.floor(Date.now() / 1000) + 86_400;
/** The deadlines of slot `slot`, `n` of them: distinct from every other slot's. */
const deadlinesOf = (slot, n) =>
  Array.from({ length: n }, (_, j) => start + (j * SLOTS + slot) * STEP);

const key = JSON.parse(
  execFileSync(
    process.execPath,
    [cli, "keys", "create", "--env", "production", "--account", "bench", "--db", db].concat([
      "--config",
      configFile,
      "--json",
    ]),
    { encoding: "utf8" },
  ),
);
const auth = { authorization: `Bearer ${key.secret}` };
const server = await serve();
const many = renderManyProcess();
const rounds = [];
const seenHttp = new Set();
let warmInfo;
try {
  const created = await (
    await fetch(`${server.url}/api/v1/timers`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json", "idempotency-key": "http-images" },
      body: JSON.stringify(TIMER),
    })
  ).json();
  let timer = created.data;
  if (!timer) throw new Error(`create: ${JSON.stringify(created)}`);
  if (timer.status !== "published") {
    const res = await fetch(`${server.url}/api/v1/timers/${timer.id}/publish`, {
      method: "POST",
      headers: { ...auth, "if-match": timer.revision },
    });
    if (res.status !== 200) throw new Error(`publish: ${res.status} ${await res.text()}`);
    timer = (await res.json()).data;
  }
  const urlsOf = (list) =>
    list.map((d) => {
      const deadline = String(d);
      const sig = signPersonalizedParams(timer.signing_secret, { deadline });
      return `${server.url}/t/${timer.id}/countdown.gif?deadline=${deadline}&sig=${sig}`;
    });
  // Untimed, the same number of images on each side: threads warm, frame caches filled.
  const warmHttp = await burst(urlsOf(deadlinesOf(0, WARM)));
  const warmMany = await many.batch(Date.now(), deadlinesOf(1, WARM));
  const warmCheck = checkGifs(bodies([...warmHttp.full, ...warmHttp.stills]), seenHttp);
  warmInfo = {
    http: { full: warmHttp.full.length, stills: warmHttp.stills.length, other: warmHttp.other },
    httpCheck: warmCheck,
    manyMs: warmMany.ms,
  };
  log(
    `warm-up (untimed): HTTP ${warmHttp.full.length} full + ${warmHttp.stills.length} stills; renderMany ${r(warmMany.ms, 0)} ms`,
  );

  async function httpRound(slot) {
    const urls = urlsOf(deadlinesOf(slot, IMAGES));
    const cpu = cpuSeconds(server.child.pid);
    const main = cpuSeconds(server.child.pid, true);
    const threads = threadSeconds(server.child.pid);
    const client = process.cpuUsage();
    const t = performance.now();
    const answers = await burst(urls);
    const ms = performance.now() - t;
    const clientUsed = process.cpuUsage(client);
    const serverCpuMs = (cpuSeconds(server.child.pid) - cpu) * 1000;
    const mainThreadCpuMs = (cpuSeconds(server.child.pid, true) - main) * 1000;
    const busiest = busiestThreads(server.child.pid, threads, threadSeconds(server.child.pid));
    return {
      ms,
      full: answers.full.length,
      stills: answers.stills.length,
      other: answers.other,
      serverCpuMs,
      mainThreadCpuMs,
      busiest,
      clientCpuMs: (clientUsed.user + clientUsed.system) / 1000,
      // After the clock stopped: every full answer an animation, every still one frame.
      fullCheck: checkGifs(bodies(answers.full), seenHttp),
      stillCheck: checkGifs(bodies(answers.stills), new Set()),
    };
  }

  for (let i = 0; i < ROUNDS; i++) {
    const one = { load_before: load() };
    const order = i % 2 ? ["many", "http"] : ["http", "many"];
    for (const what of order) {
      if (what === "http") one.http = await httpRound(2 * (i + 1));
      // The same kind of instants as the server's: now is the batch's start, deadlines absolute.
      else one.many = await many.batch(Date.now(), deadlinesOf(2 * (i + 1) + 1, IMAGES));
    }
    one.load_after = load();
    const h = one.http;
    const m = one.many;
    const answered = Math.max(1, h.full + h.stills);
    one.ratio = h.full / h.ms / (IMAGES / m.ms);
    one.cpu_ratio = m.cpuMs / IMAGES / (h.serverCpuMs / answered);
    rounds.push(one);
    const other = Object.keys(h.other).length ? ` + other ${JSON.stringify(h.other)}` : "";
    const fc = h.fullCheck;
    const mc = m.check;
    log(
      [
        `round ${i + 1} (${order.join(" then ")}), load ${one.load_before[0]} -> ${one.load_after[0]}: ratio ${r(one.ratio)}`,
        `  HTTP ${r(h.ms, 0)} ms: ${h.full} full + ${h.stills} stills${other} (${r((h.full * 1000) / h.ms, 0)} full images/s); full decoded ${fc.decoded}, frames ${JSON.stringify(fc.frames)}, failed ${fc.failed}, duplicates ${fc.duplicates}; stills frames ${JSON.stringify(h.stillCheck.frames)}`,
        `    CPU per image: server ${r(h.serverCpuMs / answered, 3)} ms (event loop ${r(h.mainThreadCpuMs / answered, 3)}, other threads ${r((h.serverCpuMs - h.mainThreadCpuMs) / answered, 3)}; busiest other threads ${h.busiest.map((x) => r(x / answered, 3)).join(", ")}), load generator ${r(h.clientCpuMs / answered, 3)} ms`,
        `  renderMany ${r(m.ms, 0)} ms (${r((IMAGES * 1000) / m.ms, 0)} images/s): decoded ${mc.decoded}, frames ${JSON.stringify(mc.frames)}, failed ${mc.failed}, duplicates ${mc.duplicates}; CPU ${r(m.cpuMs / IMAGES, 3)} ms per image (all threads; busiest but the main one ${m.busiest.map((x) => r(x / IMAGES, 3)).join(", ")})`,
      ].join("\n"),
    );
  }
} finally {
  server.child.kill("SIGTERM");
  await Promise.all([
    new Promise((resolve) => server.child.once("exit", resolve)),
    many.close().catch(() => many.child.kill("SIGTERM")),
  ]);
  rmSync(dir, { recursive: true, force: true });
}

const per = (pick) => r(median(rounds.map(pick)), 3);
const answeredOf = (x) => Math.max(1, x.http.full + x.http.stills);
const sum = (pick) => rounds.reduce((a, x) => a + pick(x), 0);
Object.assign(summary, {
  warm_up: warmInfo,
  http_ms: per((x) => x.http.ms),
  http_full_per_s: r(median(rounds.map((x) => (x.http.full * 1000) / x.http.ms)), 0),
  http_full: rounds.map((x) => x.http.full),
  http_stills: rounds.map((x) => x.http.stills),
  http_other: rounds.map((x) => x.http.other),
  http_check: {
    full_decoded: sum((x) => x.http.fullCheck.decoded),
    full_frames: rounds.map((x) => x.http.fullCheck.frames),
    failed: sum((x) => x.http.fullCheck.failed + x.http.stillCheck.failed),
    duplicates: sum((x) => x.http.fullCheck.duplicates),
    stills_frames: rounds.map((x) => x.http.stillCheck.frames),
  },
  server_cpu_ms_per_image: per((x) => x.http.serverCpuMs / answeredOf(x)),
  event_loop_cpu_ms_per_image: per((x) => x.http.mainThreadCpuMs / answeredOf(x)),
  other_threads_cpu_ms_per_image: per(
    (x) => (x.http.serverCpuMs - x.http.mainThreadCpuMs) / answeredOf(x),
  ),
  client_cpu_ms_per_image: per((x) => x.http.clientCpuMs / answeredOf(x)),
  render_many_ms: per((x) => x.many.ms),
  render_many_per_s: r(median(rounds.map((x) => (IMAGES * 1000) / x.many.ms)), 0),
  render_many_cpu_ms_per_image: per((x) => x.many.cpuMs / IMAGES),
  render_many_check: {
    decoded: sum((x) => x.many.check.decoded),
    frames: rounds.map((x) => x.many.check.frames),
    failed: sum((x) => x.many.check.failed),
    duplicates: sum((x) => x.many.check.duplicates),
  },
  ratio: per((x) => x.ratio),
  cpu_ratio: per((x) => x.cpu_ratio),
  per_round: rounds.map((x) => ({
    ratio: r(x.ratio),
    http_ms: r(x.http.ms, 0),
    render_many_ms: r(x.many.ms, 0),
    stills: x.http.stills,
    load: [x.load_before[0], x.load_after[0]],
  })),
  load_end: load(),
});
if (values.json) console.log(JSON.stringify(summary, null, 2));
else {
  const s = summary;
  const hc = s.http_check;
  const mc = s.render_many_check;
  console.log(`
${s.images} unique personalized GIFs a round (600x160, 60 frames, deadlines 1 to 365 days ahead, none rendered twice), ${s.rounds} rounds, order alternating, medians; warm-up ${s.warm_images} images a side, untimed
  HTTP, concurrency ${s.concurrency}, server threads ${s.server_threads}: ${s.http_ms} ms, ${s.http_full_per_s} full images/s; full ${s.http_full.join("/")}, stills ${s.http_stills.join("/")}${s.http_other.some((o) => Object.keys(o).length) ? `, other ${JSON.stringify(s.http_other)}` : ""}
    checked: ${hc.full_decoded} full answers decoded (frames per image: ${hc.full_frames.map((f) => JSON.stringify(f)).join(" ")}), stills (frames: ${hc.stills_frames.map((f) => JSON.stringify(f)).join(" ")}), ${hc.failed} failed, ${hc.duplicates} duplicates
    CPU per image: server ${s.server_cpu_ms_per_image} ms (event loop ${s.event_loop_cpu_ms_per_image}, other threads ${s.other_threads_cpu_ms_per_image}), load generator ${s.client_cpu_ms_per_image} ms
  renderMany, ${s.render_many}: ${s.render_many_ms} ms, ${s.render_many_per_s} images/s; CPU ${s.render_many_cpu_ms_per_image} ms per image
    checked: ${mc.decoded} decoded, ${mc.failed} failed, ${mc.duplicates} duplicates
  ratio HTTP full images/s / renderMany images/s: ${s.ratio} (target 0.85)
  CPU per image, renderMany / server: ${s.cpu_ratio}
  per round: ${s.per_round.map((x) => `${x.ratio} (${x.http_ms} / ${x.render_many_ms} ms, ${x.stills} stills, load ${x.load.join("->")})`).join("; ")}
  load average ${s.load_start.join(", ")} at the start, ${s.load_end.join(", ")} at the end`);
}
