// Benchmark: a campaign opened at once. 5,000 distinct personalized email GIFs (each recipient
// its own signed deadline, so no two are the same picture) asked at concurrency 256 from this
// process against a real `tminus serve` on a SQLite file (a fresh process per round, started and
// prepared as in production), while a client in another process asks the API for a timer's
// status (GET /api/v1/timers/{id}/status with a key) every 10 ms.
//
// Reported per round and as medians: every answer's status and type (all must be 200
// image/gif), how many were full animations and how many stills (`X-Tminus-Degraded: still`,
// drawn when the render pool was full), the burst's duration and images/s, the API probe's
// latency during the burst (p50, p99, max; target p99 < 50 ms) and before it (the baseline,
// same run), and from the server's /metrics after the burst: the event loop's lag (p99, max),
// renders refused, stills drawn, kept and shared, and the server's CPU time.
//
//   npx -y pnpm@10 build && node bench/email-burst.mjs [--images 5000] [--concurrency 256]
//     [--rounds 3] [--log-level warn] [--json]
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { signPersonalizedParams } from "../packages/core/dist/index.js";

const { values } = parseArgs({
  options: {
    images: { type: "string", default: "5000" },
    concurrency: { type: "string", default: "256" },
    rounds: { type: "string", default: "3" },
    // `info` (serve's default) writes a line per request into a pipe this process drains while
    // it is itself busy with the burst; `warn` keeps the harness out of the server's way.
    "log-level": { type: "string", default: "warn" },
    json: { type: "boolean", default: false },
  },
});
const IMAGES = Number(values.images);
const CONCURRENCY = Number(values.concurrency);
const ROUNDS = Number(values.rounds);
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const cli = here("../packages/cli/dist/cli.js");
const dir = mkdtempSync(join(tmpdir(), "tminus-burst-"));
const db = join(dir, "bench.db");
const config = join(dir, "config.json");
// Limits far above the load: the probe measures latency, never a refusal.
writeFileSync(
  config,
  JSON.stringify({ plans: { starter: { requests_per_minute: 1e9, new_timers_per_cycle: 1e9 } } }),
);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] : Number.NaN;
};
const round1 = (x) => Math.round(x * 10) / 10;
const epoch = () => performance.timeOrigin + performance.now();
const CLOCK_TICKS = 100; // USER_HZ on Linux
/**
 * CPU seconds (user + system) a process has used so far, all threads, or with `mainThread` its
 * main thread alone (the event loop); null off Linux.
 */
function cpuSeconds(pid, mainThread = false) {
  try {
    const file = mainThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`;
    const fields = readFileSync(file, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/**
 * Seconds the process's main thread (the event loop) has waited in the kernel's run queue,
 * runnable but not running (`/proc/<pid>/task/<pid>/schedstat`, second field); null without it.
 */
function runQueueWaitSeconds(pid) {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").split(" ")[1]) / 1e9;
  } catch {
    return null;
  }
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
      if (found) return;
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

// The API probe, in its own process: a status read every 10 ms on one keep-alive connection;
// each probe's start (epoch ms) and latency. The burst may stall the server, so the probe is
// never told when it starts: the samples are sorted by time afterwards.
const PROBE_CLIENT = `
const http = require("node:http");
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const [url, auth] = process.argv.slice(1);
const out = [];
let bad = 0;
process.on("message", () => { process.send({ out, bad }); setImmediate(() => process.exit(0)); });
function probe() {
  const start = performance.now();
  const done = (ok) => {
    if (!ok) bad++;
    if (out.length === 0) process.send("first");
    out.push([performance.timeOrigin + start, performance.now() - start]);
    setTimeout(probe, 10);
  };
  const req = http.get(url, { agent, headers: { authorization: auth }, timeout: 120000 }, (res) => {
    res.resume();
    res.on("end", () => done(res.statusCode === 200));
  });
  req.on("error", () => done(false));
}
probe();
`;

const key = JSON.parse(
  execFileSync(
    process.execPath,
    [cli, "keys", "create", "--env", "production", "--account", "bench", "--db", db].concat([
      "--config",
      config,
      "--json",
    ]),
    { encoding: "utf8" },
  ),
);
const auth = { authorization: `Bearer ${key.secret}` };

// A published personalized timer (one per round) whose images need a signed deadline.
async function setUp(url, r) {
  const created = await (
    await fetch(`${url}/api/v1/timers`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json", "idempotency-key": `burst-${r}` },
      body: JSON.stringify({
        name: "Trial ends",
        type: "personalized",
        personalization: { source: "deadline", require_signature: true },
      }),
    })
  ).json();
  const timer = created.data;
  if (timer.status !== "published") {
    const res = await fetch(`${url}/api/v1/timers/${timer.id}/publish`, {
      method: "POST",
      headers: { ...auth, "if-match": timer.revision },
    });
    if (res.status !== 200) throw new Error(`publish: ${res.status} ${await res.text()}`);
  }
  return timer;
}

/** The burst: every URL once, `CONCURRENCY` at a time, on keep-alive connections. */
function burst(urls) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const answers = [];
  let next = 0;
  const one = () =>
    new Promise((resolve) => {
      const i = next++;
      if (i >= urls.length) return resolve();
      const start = performance.now();
      const req = request(urls[i], { agent, timeout: 120_000 }, (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => {
          const body = Buffer.concat(chunks);
          answers.push({
            status: res.statusCode,
            type: res.headers["content-type"],
            degraded: res.headers["x-tminus-degraded"] ?? null,
            gif: body.subarray(0, 6).toString("latin1") === "GIF89a",
            ms: performance.now() - start,
          });
          resolve(one());
        });
      });
      req.on("error", (error) => {
        answers.push({
          status: `error ${error.code ?? error.message}`,
          ms: performance.now() - start,
        });
        resolve(one());
      });
      req.end();
    });
  return Promise.all(Array.from({ length: CONCURRENCY }, one)).then(() => {
    agent.destroy();
    return answers;
  });
}

async function runRound(r) {
  const server = await serve();
  try {
    const timer = await setUp(server.url, r);
    const statusUrl = `${server.url}/api/v1/timers/${timer.id}/status`;
    // Each recipient's own deadline, distinct within and across rounds: every image is new.
    const now = Math.floor(Date.now() / 1000);
    const urls = Array.from({ length: IMAGES }, (_, i) => {
      const deadline = String(now + 86_400 + r * 1_000_000 + i * 97);
      const sig = signPersonalizedParams(timer.signing_secret, { deadline });
      return `${server.url}/t/${timer.id}/countdown.gif?deadline=${deadline}&sig=${sig}`;
    });
    const prober = spawn(process.execPath, ["-e", PROBE_CLIENT, statusUrl, auth.authorization], {
      stdio: ["ignore", "ignore", "inherit", "ipc"],
    });
    const probes = new Promise((resolve) =>
      prober.on("message", (m) => {
        if (m !== "first") resolve(m);
      }),
    );
    await new Promise((resolve) => prober.once("message", resolve)); // the probe is running
    await new Promise((resolve) => setTimeout(resolve, 2000)); // probes before the burst
    const before = await metricsOf(server.metricsUrl);
    const cpuBefore = cpuSeconds(server.child.pid);
    const mainBefore = cpuSeconds(server.child.pid, true);
    const waitBefore = runQueueWaitSeconds(server.child.pid);
    const burstStart = epoch();
    const answers = await burst(urls);
    const burstEnd = epoch();
    const cpuAfter = cpuSeconds(server.child.pid);
    const mainAfter = cpuSeconds(server.child.pid, true);
    const waitAfter = runQueueWaitSeconds(server.child.pid);
    const after = await metricsOf(server.metricsUrl);
    await new Promise((resolve) => setTimeout(resolve, 100));
    prober.send("report");
    const { out: samples, bad } = await probes;
    const beforeMs = samples.filter(([at, ms]) => at + ms < burstStart).map(([, ms]) => ms);
    // A probe answered during the burst, or sent before its end and answered after it.
    const during = samples
      .filter(([at, ms]) => at + ms >= burstStart && at <= burstEnd)
      .map(([, ms]) => ms);
    const delta = (name) => (after.get(name) ?? 0) - (before.get(name) ?? 0);
    const byAnswer = new Map();
    for (const a of answers) {
      const label = `${a.status} ${a.type ?? ""}${a.gif === false ? " (not a GIF)" : ""}`;
      byAnswer.set(label, (byAnswer.get(label) ?? 0) + 1);
    }
    const stills = answers.filter((a) => a.degraded === "still").length;
    const seconds = (burstEnd - burstStart) / 1000;
    return {
      answers: Object.fromEntries(byAnswer),
      allOk: answers.length === IMAGES && answers.every((a) => a.status === 200 && a.gif),
      full: answers.filter((a) => a.status === 200 && a.degraded === null).length,
      stills,
      seconds: round1(seconds),
      imagesPerSecond: Math.round(IMAGES / seconds),
      imageP99: round1(
        quantile(
          answers.map((a) => a.ms),
          0.99,
        ),
      ),
      probes: during.length,
      probeFailures: bad,
      apiP50: round1(quantile(during, 0.5)),
      apiP99: round1(quantile(during, 0.99)),
      apiMax: round1(Math.max(...during)),
      apiP99Before: round1(quantile(beforeMs, 0.99)),
      loopLagP99: round1((after.get("nodejs_eventloop_lag_p99_seconds") ?? Number.NaN) * 1000),
      loopLagMax: round1((after.get("nodejs_eventloop_lag_max_seconds") ?? Number.NaN) * 1000),
      refused: delta("tminus_render_refusals_total"),
      drawn: delta('tminus_render_images_total{kind="gif"}'),
      stillsDrawn: delta('tminus_image_stills_total{result="drawn"}'),
      stillsKept: delta('tminus_image_stills_total{result="kept"}'),
      stillsShared: delta('tminus_image_stills_total{result="shared"}'),
      stillsInline: delta("tminus_image_stills_inline_total"),
      serverCpuSeconds: cpuBefore === null ? null : round1(cpuAfter - cpuBefore),
      // The event loop's thread: its CPU time and the share of the burst's wall time it ran.
      mainThreadCpuSeconds: mainBefore === null ? null : round1(mainAfter - mainBefore),
      mainThreadBusy:
        mainBefore === null ? null : Math.round(((mainAfter - mainBefore) / seconds) * 100),
      // Runnable but not given a core: what the machine's other work cost the event loop.
      mainThreadRunQueueSeconds: waitBefore === null ? null : round1(waitAfter - waitBefore),
    };
  } finally {
    server.child.kill("SIGTERM");
    await new Promise((resolve) => server.child.once("exit", resolve));
  }
}

const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(", ");
const loadAtStart = load();
const results = [];
for (let r = 0; r < ROUNDS; r++) {
  const result = await runRound(r);
  results.push(result);
  if (!values.json) console.error(`round ${r + 1}: ${JSON.stringify(result)}`);
}
rmSync(dir, { recursive: true, force: true });

const med = (pick) => median(results.map(pick));
const summary = {
  images: IMAGES,
  concurrency: CONCURRENCY,
  rounds: ROUNDS,
  allOk: results.every((r) => r.allOk),
  answers: results.map((r) => r.answers),
  full: med((r) => r.full),
  stills: med((r) => r.stills),
  stillShare: round1((med((r) => r.stills) / IMAGES) * 100),
  seconds: med((r) => r.seconds),
  imagesPerSecond: med((r) => r.imagesPerSecond),
  imageP99: med((r) => r.imageP99),
  apiP50: med((r) => r.apiP50),
  apiP99: med((r) => r.apiP99),
  apiMax: med((r) => r.apiMax),
  apiP99Before: med((r) => r.apiP99Before),
  loopLagP99: med((r) => r.loopLagP99),
  loopLagMax: med((r) => r.loopLagMax),
  serverCpuSeconds: med((r) => r.serverCpuSeconds),
  mainThreadCpuSeconds: med((r) => r.mainThreadCpuSeconds),
  mainThreadBusy: med((r) => r.mainThreadBusy),
  mainThreadRunQueueSeconds: med((r) => r.mainThreadRunQueueSeconds),
  cpus: `${cpus().length} x ${cpus()[0]?.model ?? "?"}`,
  node: process.version,
  loadAtStart,
  loadAtEnd: load(),
};
if (values.json) console.log(JSON.stringify({ summary, results }));
else {
  console.log(
    `\n== ${IMAGES} distinct personalized GIFs at concurrency ${CONCURRENCY}, medians of ${ROUNDS} rounds\n` +
      `every answer 200 image/gif: ${summary.allOk ? "yes" : "NO"} (${results.map((r) => JSON.stringify(r.answers)).join(" / ")})\n` +
      `full animations ${summary.full}, stills ${summary.stills} (${summary.stillShare} %)\n` +
      `burst ${summary.seconds} s, ${summary.imagesPerSecond} images/s, image p99 ${summary.imageP99} ms\n` +
      `API status during the burst: p50 ${summary.apiP50} ms, p99 ${summary.apiP99} ms (target < 50), max ${summary.apiMax} ms; p99 before ${summary.apiP99Before} ms\n` +
      `server event-loop lag after the burst (prom-client): p99 ${summary.loopLagP99} ms, max ${summary.loopLagMax} ms; server CPU ${summary.serverCpuSeconds} s, of which the event loop's thread ${summary.mainThreadCpuSeconds} s (busy ${summary.mainThreadBusy} % of the burst; ${summary.mainThreadRunQueueSeconds} s runnable but waiting for a core)\n` +
      `${summary.cpus}, Node ${summary.node}, load average ${summary.loadAtStart} at the start, ${summary.loadAtEnd} at the end`,
  );
}
