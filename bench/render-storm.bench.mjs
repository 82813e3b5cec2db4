// Benchmark: a storm of 1,000 concurrent GIF requests with 1,000 different widths, while
// the same process answers small HTTP requests (a stand-in for the API) to a client in
// another process. Two ways, each in a fresh process so memory figures are its own:
//
//   in-process  every image rendered on the event loop that answers HTTP (the old way)
//   pool        images go to createRenderPool({ threads: 1, maxQueue: 64 }); a refused
//               request (queue_full, a 503 for a client) tries again after 50 ms, as a
//               client honouring Retry-After would, until all 1,000 are served
//
// Reported: the probe's latency (p50, p99, max) during the storm and before it, how long
// the storm took, refusals, the caches' byte totals against their budgets, and RSS before,
// at the peak and after 2, 15 and 20 s idle (the main thread's heap collected; the pool
// replaces its thread after 10 s idle, see `recycle`).
//
//   npx -y pnpm@10 build && node --expose-gc bench/render-storm.bench.mjs [--requests 1000] [--json]
import { execFileSync, spawn } from "node:child_process";
import { createServer } from "node:http";
import { cpus, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    requests: { type: "string", default: "1000" },
    part: { type: "string" },
    json: { type: "boolean", default: false },
  },
});
const REQUESTS = Number(values.requests);
const self = fileURLToPath(import.meta.url);
const round = (x, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const mb = (bytes) => round(bytes / 1024 / 1024);
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] : Number.NaN;
};

// The probe client, in its own process: a GET every 20 ms; each probe's start (epoch ms)
// and latency. The storm may block the server's event loop, so the client is never told
// when it starts: the server sorts the probes by time afterwards.
const PROBE_CLIENT = `
const http = require("node:http");
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const url = process.argv[1];
const out = [];
process.on("message", () => { process.send(out); setImmediate(() => process.exit(0)); });
function probe() {
  const start = performance.now();
  const req = http.get(url, { agent, timeout: 120000 }, (res) => {
    res.resume();
    res.on("end", () => {
      out.push([performance.timeOrigin + start, performance.now() - start]);
      setTimeout(probe, 20);
    });
  });
  req.on("error", (err) => {
    // The storm held the server so long that it dropped the idle connection: still a probe.
    out.push([performance.timeOrigin + start, performance.now() - start]);
    setTimeout(probe, 20);
  });
}
probe();
`;
const epoch = () => performance.timeOrigin + performance.now();

async function part(name) {
  const { createImageRenderer, createRenderPool, IMAGE_CACHE_DEFAULTS } = await import(
    "../packages/render/dist/index.js"
  );
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  let render;
  let pool;
  let images;
  if (name === "pool") {
    pool = createRenderPool({ threads: 1, maxQueue: 64 });
    await pool.ready;
    render = (input) => pool.renderGif(input);
  } else {
    images = createImageRenderer();
    await images.gif({ remainingSeconds: 1000 });
    render = (input) => images.gif(input);
  }
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end('{"ok":true}');
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${server.address().port}/`;
  // Its own stdio: it must not hold this process's output open if this one fails.
  const client = spawn(process.execPath, ["-e", PROBE_CLIENT, url], {
    stdio: ["ignore", "ignore", "ignore", "ipc"],
  });
  process.on("exit", () => client.kill());
  const results = new Promise((r) => client.on("message", r));

  globalThis.gc?.();
  await sleep(1500); // probes before the storm
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  }, 50);

  // 1,000 different widths from 100 to 1200 (they snap to 56).
  const widths = Array.from(
    { length: REQUESTS },
    (_, i) => 100 + Math.floor((i * 1101) / REQUESTS),
  );
  let refused = 0;
  let failed = 0;
  const stormStart = epoch();
  const start = performance.now();
  await Promise.all(
    widths.map(async (width, i) => {
      const input = { remainingSeconds: 86_400 + i * 37, width };
      for (;;) {
        try {
          return await render(input);
        } catch (err) {
          if (err?.code !== "queue_full") {
            failed++;
            return null;
          }
          refused++;
          await sleep(err.retryAfterSeconds * 1000); // as a client honouring Retry-After
        }
      }
    }),
  );
  const stormMs = performance.now() - start;
  const stormEnd = epoch();
  const caches = pool ? await pool.cacheStats() : [images.cacheStats()];
  clearInterval(sampler);
  const rssAfterStorm = process.memoryUsage().rss;
  const idle = {};
  let waited = 0;
  // The pool replaces a thread that built many atlases once it has been idle 10 s.
  for (const seconds of [2, 15, 20]) {
    await sleep((seconds - waited) * 1000);
    waited = seconds;
    globalThis.gc?.();
    idle[`${seconds}s`] = process.memoryUsage().rss;
  }
  const threadHeaps = pool ? await pool.cacheStats() : null;
  client.send("stop");
  const probes = await results;
  // A probe answered during the storm, or sent before its end and answered after it.
  const before = probes.filter(([at, ms]) => at + ms < stormStart).map(([, ms]) => ms);
  const during = probes
    .filter(([at, ms]) => at + ms >= stormStart && at < stormEnd)
    .map(([, ms]) => ms);
  await pool?.close();
  server.close();
  const summary = (xs) => ({
    n: xs.length,
    p50_ms: round(quantile(xs, 0.5)),
    p99_ms: round(quantile(xs, 0.99)),
    max_ms: round(Math.max(...xs)),
  });
  return {
    way: name,
    requests: REQUESTS,
    storm_ms: Math.round(stormMs),
    refused_then_retried: refused,
    failed,
    probe_before: summary(before),
    probe_during_storm: summary(during),
    caches: caches.map((c) => ({
      atlases: c.atlases,
      atlas_mb: mb(c.atlasBytes),
      atlas_budget_mb: mb(c.atlasBudget),
      frame_mb: mb(c.frameBytes),
      frame_budget_mb: mb(c.frameBudget),
    })),
    default_budgets_mb: {
      atlas: mb(IMAGE_CACHE_DEFAULTS.atlasBytes),
      frame: mb(IMAGE_CACHE_DEFAULTS.frameBytes),
    },
    thread_heaps_after_idle_mb: threadHeaps?.map((h) => ({
      heap_used: mb(h.heapUsed),
      external: mb(h.external),
    })),
    main_heap_used_mb: mb(process.memoryUsage().heapUsed),
    rss_mb: {
      before: mb(rssBefore),
      peak: mb(rssPeak),
      right_after: mb(rssAfterStorm),
      ...Object.fromEntries(Object.entries(idle).map(([k, v]) => [`idle_${k}`, mb(v)])),
    },
  };
}

if (values.part) {
  process.stdout.write(JSON.stringify(await part(values.part)));
  process.exit(0);
}

const report = {
  machine: {
    node: process.version,
    cpus: cpus().length,
    load_average: loadavg().map((x) => round(x)),
  },
  parts: ["pool", "in-process"].map((name) =>
    JSON.parse(
      execFileSync(
        process.execPath,
        ["--expose-gc", self, "--part", name, "--requests", String(REQUESTS)],
        { encoding: "utf8", maxBuffer: 1 << 24 },
      ),
    ),
  ),
};
if (values.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
else {
  const lines = [
    `node ${report.machine.node}, ${report.machine.cpus} CPUs, load average ${report.machine.load_average.join(" ")}`,
  ];
  for (const p of report.parts) {
    lines.push(
      "",
      `${p.way}: ${p.requests} GIFs of distinct widths in ${p.storm_ms} ms (${p.refused_then_retried} refusals retried, ${p.failed} failed)`,
      `  probe before: p50 ${p.probe_before.p50_ms} ms, p99 ${p.probe_before.p99_ms} ms (${p.probe_before.n})`,
      `  probe during: p50 ${p.probe_during_storm.p50_ms} ms, p99 ${p.probe_during_storm.p99_ms} ms, max ${p.probe_during_storm.max_ms} ms (${p.probe_during_storm.n})`,
      `  caches: ${p.caches.map((c) => `${c.atlases} atlases ${c.atlas_mb}/${c.atlas_budget_mb} MB, frames ${c.frame_mb}/${c.frame_budget_mb} MB`).join("; ")}`,
      `  RSS: before ${p.rss_mb.before} MB, peak ${p.rss_mb.peak} MB, right after ${p.rss_mb.right_after} MB, idle 2 s ${p.rss_mb.idle_2s} MB, 15 s ${p.rss_mb.idle_15s} MB, 20 s ${p.rss_mb.idle_20s} MB`,
      `  heaps after 20 s: main ${p.main_heap_used_mb} MB${p.thread_heaps_after_idle_mb ? `, threads ${p.thread_heaps_after_idle_mb.map((h) => `${h.heap_used} MB + ${h.external} MB external`).join(", ")}` : ""}`,
    );
  }
  process.stdout.write(`${lines.join("\n")}\n`);
}
