// Benchmark (issue 27): N unique personalized email GIFs over HTTP against `renderMany` of the
// same N images in one process, same run.
//
// HTTP: a real `tminus serve --no-worker` on a SQLite file in its own process (default config
// unless `--server-threads`), started once, prepared, and warmed by an untimed burst; each round
// asks IMAGES GIFs of one published personalized timer, each recipient its own signed
// `deadline` (distinct within and across rounds: nothing is cached or coalesced), CONCURRENCY
// at a time on keep-alive connections from this process. Only full animations count: a still
// (`X-Tminus-Degraded: still`) is reported and left out of the HTTP images/s.
// Baseline: `renderMany` of the same IMAGES deadlines (same now, same look, size and frames) in
// a fresh child process per round, the default options (threads from the idle cores, the
// caller's thread too), timed from the call to the last result; the child then runs a second
// batch (other deadlines) on the same process, reported as "warm".
// Rounds alternate the order (HTTP first, then renderMany first). Ratios are medians of the
// per-round ratios: HTTP full images/s over renderMany images/s; and the CPU per image of each
// (server, all threads; renderMany's process, all threads), which the machine's load moves
// less than wall time. The load generator's own CPU per image is reported too: on one machine
// it takes cores the server does not get.
//
//   npx -y pnpm@10 build && node bench/images-over-http.mjs [--images 3000] [--concurrency 64]
//     [--rounds 5] [--server-threads N] [--warm-images 500] [--server-cpu-prof DIR] [--json]
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { join, resolve as resolvePath } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { signPersonalizedParams } from "../packages/core/dist/index.js";

const { values } = parseArgs({
  options: {
    images: { type: "string", default: "3000" },
    concurrency: { type: "string", default: "64" },
    rounds: { type: "string", default: "5" },
    "server-threads": { type: "string" },
    "warm-images": { type: "string", default: "500" },
    "server-cpu-prof": { type: "string" },
    json: { type: "boolean", default: false },
  },
});
const IMAGES = Number(values.images);
const CONCURRENCY = Number(values.concurrency);
const ROUNDS = Number(values.rounds);
const WARM = Number(values["warm-images"]);
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const cli = here("../packages/cli/dist/cli.js");
const renderDist = here("../packages/render/dist/index.js");
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

function serve() {
  const prof = values["server-cpu-prof"];
  const nodeFlags = prof
    ? ["--cpu-prof", "--cpu-prof-dir", resolvePath(prof), "--cpu-prof-interval", "200"]
    : [];
  if (prof) mkdirSync(prof, { recursive: true });
  const child = spawn(
    process.execPath,
    [...nodeFlags, cli, "serve", "--port", "0", "--no-worker", "--db", db].concat([
      "--config",
      configFile,
      "--log-level",
      "warn",
    ]),
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (c) => {
      out += c;
      const api = /listening on (http:\/\/\S+)/.exec(out);
      if (api) resolve({ child, url: api[1] });
    });
    child.once("exit", (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
}

/** Every URL once, CONCURRENCY at a time, on keep-alive connections. */
async function burst(urls) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const out = { full: 0, stills: 0, other: {} };
  let next = 0;
  const one = () =>
    new Promise((resolve) => {
      const i = next++;
      if (i >= urls.length) return resolve();
      const req = request(urls[i], { agent }, (res) => {
        let head = null;
        res.on("data", (c) => {
          head ??= c.subarray(0, 6).toString("latin1");
        });
        res.on("end", () => {
          if (res.statusCode === 200 && head === "GIF89a") {
            if (res.headers["x-tminus-degraded"] === "still") out.stills++;
            else out.full++;
          } else {
            const label = `${res.statusCode} ${res.headers["content-type"]}`;
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

// renderMany in a process of its own: the same deadlines, the default options; then a second
// batch on the same process (warm). Prints one JSON line.
const RENDER_MANY_CHILD = `
const [dist, now, list, other] = process.argv.slice(1);
const { renderMany } = await import(dist);
const NOW = Number(now);
async function batch(deadlines) {
  const jobs = deadlines.map((d) => ({ deadline: d * 1000 }));
  const cpu = process.cpuUsage();
  const t = performance.now();
  let ok = 0;
  for await (const x of renderMany(jobs, { now: NOW })) if (x.ok) ok++;
  const ms = performance.now() - t;
  const used = process.cpuUsage(cpu);
  return { ms, cpuMs: (used.user + used.system) / 1000, ok };
}
const first = await batch(JSON.parse(list));
const warm = await batch(JSON.parse(other));
console.log(JSON.stringify({ first, warm }));
`;

function renderManyRound(now, deadlines, otherDeadlines) {
  const out = execFileSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      RENDER_MANY_CHILD,
      renderDist,
      String(now),
      JSON.stringify(deadlines),
      JSON.stringify(otherDeadlines),
    ],
    { encoding: "utf8", maxBuffer: 1 << 20 },
  );
  const result = JSON.parse(out.trim().split("\n").pop());
  if (result.first.ok !== deadlines.length) throw new Error(`renderMany: ${result.first.ok} ok`);
  return result;
}

const summary = {
  cpus: `${cpus().length} x ${cpus()[0]?.model ?? "?"}`,
  available_parallelism: availableParallelism(),
  node: process.version,
  images: IMAGES,
  concurrency: CONCURRENCY,
  rounds: ROUNDS,
  server_threads: values["server-threads"] ?? "default",
  load_start: load(),
};
log(
  `${summary.cpus}, Node ${summary.node}; load average ${summary.load_start.join(", ")} at the start`,
);

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
const rounds = [];
try {
  const created = await (
    await fetch(`${server.url}/api/v1/timers`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json", "idempotency-key": "http-images" },
      body: JSON.stringify({
        name: "Trial ends",
        type: "personalized",
        personalization: { source: "deadline", require_signature: true },
      }),
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
  const start = Math.floor(Date.now() / 1000);
  let serial = 0;
  /** IMAGES deadlines no earlier round or batch used: each a distinct picture. */
  const deadlines = (n) =>
    Array.from({ length: n }, () => start + 86_400 + 3_661 * ++serial + (serial % 59));
  const urlsOf = (list) =>
    list.map((d) => {
      const deadline = String(d);
      const sig = signPersonalizedParams(timer.signing_secret, { deadline });
      return `${server.url}/t/${timer.id}/countdown.gif?deadline=${deadline}&sig=${sig}`;
    });
  // Untimed: the server's threads warm, its frame caches filled as after any first minutes.
  await burst(urlsOf(deadlines(WARM)));

  async function httpRound() {
    const urls = urlsOf(deadlines(IMAGES));
    const cpu = cpuSeconds(server.child.pid);
    const main = cpuSeconds(server.child.pid, true);
    const client = process.cpuUsage();
    const t = performance.now();
    const answers = await burst(urls);
    const ms = performance.now() - t;
    const clientUsed = process.cpuUsage(client);
    return {
      ms,
      ...answers,
      serverCpuMs: (cpuSeconds(server.child.pid) - cpu) * 1000,
      mainThreadCpuMs: (cpuSeconds(server.child.pid, true) - main) * 1000,
      clientCpuMs: (clientUsed.user + clientUsed.system) / 1000,
    };
  }

  for (let i = 0; i < ROUNDS; i++) {
    const one = { load_before: load() };
    const order = i % 2 ? ["many", "http"] : ["http", "many"];
    for (const what of order) {
      if (what === "http") one.http = await httpRound();
      else {
        // The same instants as the server's: now is the round's start, the deadlines absolute.
        const list = deadlines(IMAGES);
        one.many = renderManyRound(Date.now(), list, deadlines(IMAGES));
      }
    }
    one.load_after = load();
    const h = one.http;
    const m = one.many.first;
    one.ratio = h.full / h.ms / (IMAGES / m.ms);
    one.ratio_to_warm = h.full / h.ms / (IMAGES / one.many.warm.ms);
    one.cpu_ratio = m.cpuMs / IMAGES / (h.serverCpuMs / Math.max(1, h.full + h.stills));
    rounds.push(one);
    log(
      `round ${i + 1} (${order.join(" then ")}): HTTP ${r(h.ms, 0)} ms, ${h.full} full + ${h.stills} stills${Object.keys(h.other).length ? ` + ${JSON.stringify(h.other)}` : ""}, server CPU ${r(h.serverCpuMs / (h.full + h.stills), 3)} ms/image (event loop ${r(h.mainThreadCpuMs / (h.full + h.stills), 3)}), client ${r(h.clientCpuMs / (h.full + h.stills), 3)} ms/image; renderMany ${r(m.ms, 0)} ms, CPU ${r(m.cpuMs / IMAGES, 3)} ms/image (warm batch ${r(one.many.warm.ms, 0)} ms); ratio ${r(one.ratio)} (to warm ${r(one.ratio_to_warm)}), CPU ratio ${r(one.cpu_ratio)}; load ${one.load_before[0]} -> ${one.load_after[0]}`,
    );
  }
} finally {
  server.child.kill("SIGTERM");
  await new Promise((resolve) => server.child.once("exit", resolve));
  rmSync(dir, { recursive: true, force: true });
}

const per = (pick) => r(median(rounds.map(pick)), 3);
Object.assign(summary, {
  http_ms: per((x) => x.http.ms),
  http_full_per_s: r(median(rounds.map((x) => (x.http.full * 1000) / x.http.ms)), 0),
  http_full: rounds.map((x) => x.http.full),
  http_stills: rounds.map((x) => x.http.stills),
  http_other: rounds.map((x) => x.http.other),
  server_cpu_ms_per_image: per((x) => x.http.serverCpuMs / (x.http.full + x.http.stills)),
  event_loop_cpu_ms_per_image: per((x) => x.http.mainThreadCpuMs / (x.http.full + x.http.stills)),
  client_cpu_ms_per_image: per((x) => x.http.clientCpuMs / (x.http.full + x.http.stills)),
  render_many_ms: per((x) => x.many.first.ms),
  render_many_per_s: r(median(rounds.map((x) => (IMAGES * 1000) / x.many.first.ms)), 0),
  render_many_warm_ms: per((x) => x.many.warm.ms),
  render_many_cpu_ms_per_image: per((x) => x.many.first.cpuMs / IMAGES),
  ratio: per((x) => x.ratio),
  ratio_to_warm: per((x) => x.ratio_to_warm),
  cpu_ratio: per((x) => x.cpu_ratio),
  per_round: rounds.map((x) => ({
    ratio: r(x.ratio),
    http_ms: r(x.http.ms, 0),
    render_many_ms: r(x.many.first.ms, 0),
    load: [x.load_before[0], x.load_after[0]],
  })),
  load_end: load(),
});
if (values.json) console.log(JSON.stringify(summary, null, 2));
else {
  const s = summary;
  console.log(`
${s.images} unique personalized GIFs (600x160, 60 frames), medians of ${s.rounds} rounds, order alternating
  HTTP, concurrency ${s.concurrency}, server threads ${s.server_threads}: ${s.http_ms} ms, ${s.http_full_per_s} full images/s; full ${s.http_full.join("/")}, stills ${s.http_stills.join("/")}
    CPU per image: server ${s.server_cpu_ms_per_image} ms (event loop ${s.event_loop_cpu_ms_per_image} ms), load generator ${s.client_cpu_ms_per_image} ms
  renderMany in one process (default options): ${s.render_many_ms} ms, ${s.render_many_per_s} images/s (warm second batch ${s.render_many_warm_ms} ms); CPU ${s.render_many_cpu_ms_per_image} ms per image
  ratio HTTP / renderMany (images/s): ${s.ratio} (target 0.85); to renderMany's warm batch ${s.ratio_to_warm}
  CPU per image, renderMany / server: ${s.cpu_ratio}
  per round: ${s.per_round.map((x) => `${x.ratio} (${x.http_ms} / ${x.render_many_ms} ms, load ${x.load.join("->")})`).join("; ")}
  load average ${s.load_start.join(", ")} at the start, ${s.load_end.join(", ")} at the end`);
}
