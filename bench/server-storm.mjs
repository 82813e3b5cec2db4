// Benchmark (issue 40): an image storm on a real `tminus serve`, measured as a container
// would feel it. One published timer; N GIF requests at once, each of its own width (100 px
// upward, so every one is a new look size: a new atlas, satori and resvg each), while a probe
// in another process asks the API for the timer's status every 20 ms. Reported: every
// answer's status (and how many were stills), the server's RSS before, at its peak (VmHWM,
// the kernel's high-water mark, so no peak falls between two samples) and 30 s after the
// storm, the probe's latency before and during the storm (max, p99), and how long the storm
// took.
//
//   npx -y pnpm@10 build && node bench/server-storm.mjs [--requests 1000] [--after 30]
//     [--serve-args "--memory-mb 256"] [--config '{"render":{"threads":1}}'] [--json]
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { createServer } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    requests: { type: "string", default: "1000" },
    after: { type: "string", default: "30" },
    "serve-args": { type: "string", default: "" },
    // Settings merged into the server's config file, e.g. '{"render":{"threads":1}}'.
    config: { type: "string", default: "{}" },
    json: { type: "boolean", default: false },
  },
});
const REQUESTS = Number(values.requests);
const AFTER_S = Number(values.after);
const cli = fileURLToPath(new URL("../packages/cli/dist/cli.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "tminus-storm-"));
const round = (x, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] : Number.NaN;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The server's resident set and its high-water mark, in MB (from /proc). */
function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN);
  return { rss: round(kb("VmRSS") / 1024), peak: round(kb("VmHWM") / 1024) };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const extra = values["serve-args"].split(" ").filter(Boolean);
// The probe asks 50 times a second: a plan that allows it, so it measures the status route,
// not the rate limiter's 429.
const config = join(dir, "config.json");
writeFileSync(
  config,
  JSON.stringify({
    plans: { starter: { requests_per_minute: 100_000 } },
    default_plan: "starter",
    ...JSON.parse(values.config),
  }),
);
const server = spawn(
  process.execPath,
  [cli, "serve", "--no-worker", "--port", String(port), "--db", join(dir, "storm.db")]
    .concat(["--keys-file", join(dir, "keys.txt"), "--log-level", "warn", "--config", config])
    .concat(extra),
  { stdio: ["ignore", "ignore", "inherit"] },
);
let exited = null;
server.once("exit", (code) => {
  exited = code;
});
for (let i = 0; ; i++) {
  if (exited !== null) throw new Error(`server exited ${exited}`);
  if (i > 600) throw new Error("the server did not answer /healthz within 60 s");
  if (
    await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    )
  )
    break;
  await sleep(100);
}
const key = /production\s+(\S+)/.exec(readFileSync(join(dir, "keys.txt"), "utf8"))[1];
const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
const created = await (
  await fetch(`${base}/api/v1/timers`, {
    method: "POST",
    headers: { ...headers, "idempotency-key": "storm" },
    body: JSON.stringify({ name: "Storm", type: "fixed", deadline_at: "2099-01-01T00:00:00Z" }),
  })
).json();
const id = created.data.id;
const published = await fetch(`${base}/api/v1/timers/${id}/publish`, {
  method: "POST",
  headers: { ...headers, "if-match": created.data.revision },
});
if (!published.ok) throw new Error(`publish ${published.status}`);
// One image first: the renderer and its threads loaded, as on a server that has been up.
await (await fetch(`${base}/t/${id}/countdown.gif`)).arrayBuffer();
await sleep(1000);
const idle = memory(server.pid);

// The probe, in a process of its own so the storm's client does not delay it.
const PROBE = `
const http = require("node:http");
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const [url, key] = process.argv.slice(1);
const out = [];
process.on("message", () => { process.send(out); setImmediate(() => process.exit(0)); });
function probe() {
  const start = Date.now();
  const t = performance.now();
  http.get(url, { agent, headers: { authorization: "Bearer " + key } }, (res) => {
    res.resume();
    res.on("end", () => { out.push([start, performance.now() - t, res.statusCode]); setTimeout(probe, 20); });
  }).on("error", () => setTimeout(probe, 20));
}
probe();
`;
const prober = spawn(process.execPath, ["-e", PROBE, `${base}/api/v1/timers/${id}/status`, key], {
  stdio: ["ignore", "inherit", "inherit", "ipc"],
});
await sleep(3000);

const agent = new Agent({ keepAlive: true, maxSockets: REQUESTS });
const statuses = {};
let stills = 0;
const get = (width) =>
  new Promise((resolve) => {
    request(`${base}/t/${id}/countdown.gif?width=${width}`, { agent }, (res) => {
      const degraded = res.headers["x-tminus-degraded"];
      res.resume();
      res.on("end", () => {
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        if (degraded) stills++;
        resolve();
      });
    })
      .on("error", () => {
        statuses.error = (statuses.error ?? 0) + 1;
        resolve();
      })
      .end();
  });
const stormStart = Date.now();
await Promise.all(Array.from({ length: REQUESTS }, (_, i) => get(100 + i)));
const stormEnd = Date.now();
const atEnd = memory(server.pid);
await sleep(AFTER_S * 1000);
const after = memory(server.pid);

prober.send("stop");
const probes = await new Promise((resolve) => prober.once("message", resolve));
const before = probes.filter(([at, ms]) => at + ms < stormStart).map(([, ms]) => ms);
const during = probes.filter(([at, ms]) => at + ms >= stormStart && at <= stormEnd);
server.kill("SIGTERM");
await new Promise((r) => server.once("exit", r));
rmSync(dir, { recursive: true, force: true });

const result = {
  requests: REQUESTS,
  serve_args: extra,
  storm_ms: stormEnd - stormStart,
  statuses,
  stills,
  rss_mb: { idle: idle.rss, peak: atEnd.peak, at_end: atEnd.rss, [`after_${AFTER_S}s`]: after.rss },
  probe_ms: {
    before_p99: round(quantile(before, 0.99)),
    during_count: during.length,
    during_p99: round(
      quantile(
        during.map(([, ms]) => ms),
        0.99,
      ),
    ),
    during_max: round(Math.max(...during.map(([, ms]) => ms))),
    statuses: probes.reduce((n, [, , status]) => {
      n[status] = (n[status] ?? 0) + 1;
      return n;
    }, {}),
  },
  load_average: loadavg().map((x) => round(x)),
};
if (values.json) console.log(JSON.stringify(result, null, 2));
else
  console.log(
    `storm of ${REQUESTS} GIFs of distinct widths: ${result.storm_ms} ms, statuses ${JSON.stringify(statuses)}, ${stills} stills\n` +
      `RSS: idle ${idle.rss} MB, peak ${atEnd.peak} MB, at the end ${atEnd.rss} MB, ${AFTER_S} s after ${after.rss} MB\n` +
      `API probe: p99 before ${result.probe_ms.before_p99} ms; during ${during.length} probes, p99 ${result.probe_ms.during_p99} ms, max ${result.probe_ms.during_max} ms; statuses ${JSON.stringify(result.probe_ms.statuses)}\n` +
      `load average at the end ${result.load_average.join(" ")}`,
  );
