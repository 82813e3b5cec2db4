// The hot path, measured in one process tree and one run (`pnpm bench`):
//   1. GET /api/v1/timers/{id}/status through `tminus serve` vs a bare node:http server
//      answering a constant JSON body of the same size (throughput ratio, p99), the bare server
//      both in this process (beside the load generator) and in a process of its own;
//   2. POST /api/v1/timers with a fresh Idempotency-Key each (creates/s, p99);
//   3. GET /t/{id}/countdown.gif vs a bare server sending a constant GIF of the same size;
//   4. an image storm: 1,000 concurrent GIFs of 1,000 distinct widths while a probe measures
//      the API's latency (p99 before and during the storm);
//   5. bench/render.bench.mjs (GIF medians and p99 against the per-frame pipeline).
// Every throughput figure is a same-run ratio against its baseline, median of several rounds
// (the machine is shared and noisy). Build first: `pnpm build`.
//
//   node bench/hot-path.mjs [--rounds 5] [--seconds 5] [--connections 32] [--skip-render]
//                           [--log-level info|warn]
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon from "autocannon";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    seconds: { type: "string", default: "5" },
    connections: { type: "string", default: "32" },
    "skip-render": { type: "boolean", default: false },
    // The server's log level: `info` writes a line per request (the default of `tminus
    // serve`), `warn` none, as the runs before issue 25.
    "log-level": { type: "string", default: "info" },
  },
});
const rounds = Number(values.rounds);
const duration = Number(values.seconds);
const connections = Number(values.connections);
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const cli = here("../packages/cli/dist/cli.js");
const dir = mkdtempSync(join(tmpdir(), "tminus-hot-"));
const db = join(dir, "bench.db");
const config = join(dir, "config.json");
// Limits far above the load: the bench measures the work of limiting, not refusals.
writeFileSync(
  config,
  JSON.stringify({
    plans: { starter: { requests_per_minute: 1e9, new_timers_per_cycle: 1e9 } },
  }),
);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const load = (opts) =>
  new Promise((resolve, reject) =>
    autocannon({ connections, duration, ...opts }, (e, r) => (e ? reject(e) : resolve(r))),
  );

/** A server started from the CLI (or a bare one below), resolved once it listens. */
function start(args) {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    let listening = false;
    child.stdout.on("data", (c) => {
      // After the banner only request log lines follow: read and dropped, never kept.
      if (listening) return;
      out += c;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        listening = true;
        resolve({ child, url: m[1] });
      }
    });
    child.once("exit", (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
}

/**
 * CPU time (user + system, all threads) a process has used so far, in µs; null off Linux. Per
 * request it compares the servers' own work, whatever the load generator leaves them.
 */
function cpuMicros(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
const CLOCK_TICKS = 100; // USER_HZ on Linux
const perRequest = (pid, run) => async () => {
  const before = cpuMicros(pid);
  const result = await run();
  const after = cpuMicros(pid);
  result.cpuPerRequest = before === null ? null : (after - before) / result.requests.total;
  return result;
};

/** A bare node:http server answering one constant body (in this process). */
function bare(body, contentType) {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": contentType, "content-length": body.byteLength });
    res.end(body);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() }),
    ),
  );
}

const key = JSON.parse(
  execFileSync(
    process.execPath,
    [cli, "keys", "create", "--env", "production", "--account", "bench"].concat([
      "--db",
      db,
      "--config",
      config,
      "--json",
    ]),
    { encoding: "utf8" },
  ),
);
const tminus = await start([
  cli,
  "serve",
  "--port",
  "0",
  "--db",
  db,
  "--config",
  config,
  "--log-level",
  values["log-level"],
  "--log-format",
  "json",
]);
const auth = { authorization: `Bearer ${key.secret}` };
const json = { ...auth, "content-type": "application/json" };
const timer = await (
  await fetch(`${tminus.url}/api/v1/timers`, {
    method: "POST",
    headers: { ...json, "idempotency-key": "bench" },
    body: JSON.stringify({ name: "Bench", type: "fixed", deadline_at: "2030-01-01T00:00:00Z" }),
  })
).json();
const published = await (
  await fetch(`${tminus.url}/api/v1/timers/${timer.data.id}/publish`, {
    method: "POST",
    headers: { ...auth, "if-match": timer.data.revision },
  })
).json();
const statusUrl = `${tminus.url}/api/v1/timers/${timer.data.id}/status`;
const gifUrl = `${tminus.url}${new URL(published.data.urls.gif).pathname}`;

// Baselines answer bodies of the sizes tminus answers.
const statusBody = Buffer.from(await (await fetch(statusUrl, { headers: auth })).arrayBuffer());
const gifBody = Buffer.from(await (await fetch(gifUrl)).arrayBuffer());
const bareJson = await bare(statusBody, "application/json; charset=utf-8");
// The same bare server in a process of its own: a stricter baseline. The one above shares its
// event loop with the load generator, as the figures did; this one has a core to
// itself, so the ratio against it compares two servers that each may use a whole core.
const bodyFile = join(dir, "status-body.json");
writeFileSync(bodyFile, statusBody);
const BARE_SERVER = `
const body = require("node:fs").readFileSync(process.argv[1]);
require("node:http").createServer((_req, res) => {
  res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": body.byteLength });
  res.end(body);
}).listen(0, "127.0.0.1", function () { console.log("listening on http://127.0.0.1:" + this.address().port); });
`;
const bareApart = await start(["-e", BARE_SERVER, bodyFile]);
const bareGif = await bare(gifBody, "image/gif");

console.log(
  `machine: ${cpus().length} x ${cpus()[0]?.model}, Node ${process.version}, load ${loadavg()[0].toFixed(1)}; ` +
    `${rounds} rounds x ${duration} s, ${connections} connections\n`,
);

// Warm everything once (JIT, page cache, the render pool).
await load({ url: `${bareJson.url}/`, duration: 2 });
await load({ url: statusUrl, headers: auth, duration: 2 });
await load({ url: gifUrl, duration: 2 });

const results = {
  status: [],
  statusApart: [],
  statusCpu: [],
  bareCpu: [],
  statusP99: [],
  bareP99: [],
  creates: [],
  createsP99: [],
  gif: [],
};
await load({ url: `${bareApart.url}/`, duration: 2 });
for (let r = 0; r < rounds; r++) {
  const b = await load({ url: `${bareJson.url}/` });
  const ba = await perRequest(bareApart.child.pid, () => load({ url: `${bareApart.url}/` }))();
  const s = await perRequest(tminus.child.pid, () => load({ url: statusUrl, headers: auth }))();
  const c = await load({
    url: `${tminus.url}/api/v1/timers`,
    method: "POST",
    headers: { ...json, "idempotency-key": "[<id>]" },
    body: JSON.stringify({ name: "Bench", type: "fixed", deadline_at: "2030-01-01T00:00:00Z" }),
    idReplacement: true,
  });
  const bg = await load({ url: `${bareGif.url}/` });
  const g = await load({ url: gifUrl });
  for (const [name, x] of [
    ["status", s],
    ["creates", c],
    ["gif", g],
  ]) {
    if (x.non2xx > 0 || x.errors > 0)
      throw new Error(`${name}: ${x.non2xx} non-2xx, ${x.errors} errors`);
  }
  results.status.push(s.requests.average / b.requests.average);
  results.statusApart.push(s.requests.average / ba.requests.average);
  if (s.cpuPerRequest !== null) {
    results.statusCpu.push(s.cpuPerRequest);
    results.bareCpu.push(ba.cpuPerRequest);
  }
  results.statusP99.push(s.latency.p99);
  results.bareP99.push(b.latency.p99);
  results.creates.push(c.requests.average);
  results.createsP99.push(c.latency.p99);
  results.gif.push(g.requests.average / bg.requests.average);
  console.log(
    `round ${r + 1}: status ${s.requests.average.toFixed(0)} vs bare ${b.requests.average.toFixed(0)} req/s ` +
      `(${(s.requests.average / b.requests.average).toFixed(3)}), p99 ${s.latency.p99} ms; ` +
      `bare apart ${ba.requests.average.toFixed(0)} (${(s.requests.average / ba.requests.average).toFixed(3)})` +
      (s.cpuPerRequest === null
        ? ""
        : `, server CPU ${s.cpuPerRequest.toFixed(1)} vs ${ba.cpuPerRequest.toFixed(1)} us/request`) +
      " | " +
      `creates ${c.requests.average.toFixed(0)}/s p99 ${c.latency.p99} ms | ` +
      `gif ${g.requests.average.toFixed(0)} vs ${bg.requests.average.toFixed(0)} req/s ` +
      `(${(g.requests.average / bg.requests.average).toFixed(3)})`,
  );
}

// The storm: 1,000 concurrent new images from this process while a probe in its own process
// asks for the API's status every 10 ms. The probe lives apart so that what it measures is
// the server, not this process's own event loop busy with 1,000 responses.
const PROBE_CLIENT = `
const http = require("node:http");
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const [url, auth] = process.argv.slice(1);
const out = [];
process.on("message", () => { process.send(out); setImmediate(() => process.exit(0)); });
function probe() {
  const start = performance.now();
  const done = () => {
    out.push([performance.timeOrigin + start, performance.now() - start]);
    setTimeout(probe, 10);
  };
  const req = http.get(url, { agent, headers: { authorization: auth }, timeout: 120000 }, (res) => {
    res.resume();
    res.on("end", done);
  });
  req.on("error", done);
}
probe();
`;
const epoch = () => performance.timeOrigin + performance.now();
const prober = spawn(process.execPath, ["-e", PROBE_CLIENT, statusUrl, auth.authorization], {
  stdio: ["ignore", "ignore", "inherit", "ipc"],
});
const probes = new Promise((r) => prober.on("message", r));
await new Promise((r) => setTimeout(r, 3000)); // probes before the storm
const stormStart = epoch();
const statuses = await Promise.all(
  Array.from({ length: 1000 }, async (_, i) => {
    const res = await fetch(`${gifUrl}?width=${100 + ((i * 37) % 1101)}&frames=${1 + (i % 60)}`);
    await res.arrayBuffer();
    return res.status;
  }),
);
const stormEnd = epoch();
const stormMs = stormEnd - stormStart;
await new Promise((r) => setTimeout(r, 200));
prober.send("report");
const samples = await probes;
const before = samples.filter(([at, ms]) => at + ms < stormStart).map(([, ms]) => ms);
// A probe answered during the storm, or sent before its end and answered after it.
const during = samples
  .filter(([at, ms]) => at + ms >= stormStart && at <= stormEnd)
  .map(([, ms]) => ms);

console.log(
  `\n== medians of ${rounds} rounds\n` +
    `status vs bare node:http: ${median(results.status).toFixed(3)} (target >= 0.5, stretch 0.7); ` +
    `p99 ${median(results.statusP99)} ms vs ${median(results.bareP99)} ms\n` +
    `status vs the bare server in a process of its own: ${median(results.statusApart).toFixed(3)}` +
    (results.statusCpu.length
      ? `; server CPU per request ${median(results.statusCpu).toFixed(1)} us vs ${median(results.bareCpu).toFixed(1)} us (bare / ours ${(median(results.bareCpu) / median(results.statusCpu)).toFixed(3)})\n`
      : "\n") +
    `creates: ${median(results.creates).toFixed(0)}/s, p99 ${median(results.createsP99)} ms (target >= 3,000/s)\n` +
    `GIF route vs constant-buffer server: ${median(results.gif).toFixed(3)} (target >= 0.5)\n` +
    `image storm (1,000 GIFs, distinct widths and frame counts): ${(stormMs / 1000).toFixed(1)} s, ` +
    `${statuses.filter((s) => s === 200).length} x 200, ${statuses.filter((s) => s === 503).length} x 503; ` +
    `API probe p99 ${quantile(before, 0.99).toFixed(1)} ms before, ${quantile(during, 0.99).toFixed(1)} ms during ` +
    `(${during.length} probes; target <= 50 ms)`,
);

tminus.child.kill("SIGTERM");
bareJson.close();
bareGif.close();
bareApart.child.kill("SIGTERM");
await new Promise((r) => tminus.child.once("exit", r));

// The first email image from a fresh `tminus serve` (it prepares its render threads at start):
// asked the moment it listens, and asked once start-up is over (1.5 s later). Each in its own
// fresh process, median of three.
const gifPath = new URL(gifUrl).pathname;
async function firstImage(waitMs) {
  const fresh = await start([
    cli,
    "serve",
    "--port",
    "0",
    "--db",
    db,
    "--config",
    config,
    "--log-level",
    values["log-level"],
    "--log-format",
    "json",
  ]);
  await new Promise((r) => setTimeout(r, waitMs));
  const t = performance.now();
  const res = await fetch(`${fresh.url}${gifPath}?width=600`);
  await res.arrayBuffer();
  const ms = performance.now() - t;
  if (res.status !== 200) throw new Error(`first image: ${res.status}`);
  fresh.child.kill("SIGTERM");
  await new Promise((r) => fresh.child.once("exit", r));
  return ms;
}
const firstAtListen = [];
const firstAfterStart = [];
for (let i = 0; i < 3; i++) {
  firstAtListen.push(await firstImage(0));
  firstAfterStart.push(await firstImage(1500));
}
console.log(
  `first GIF from a fresh tminus serve: ${median(firstAfterStart).toFixed(1)} ms once started ` +
    `(target <= 150 ms), ${median(firstAtListen).toFixed(1)} ms when asked the moment it listens`,
);
rmSync(dir, { recursive: true, force: true });

if (!values["skip-render"]) {
  console.log("\n== GIF rendering (bench/render.bench.mjs)");
  execFileSync(process.execPath, [here("./render.bench.mjs"), "--rounds", "3"], {
    stdio: "inherit",
  });
}
