// Benchmark: GET /api/v1/timers/{id}/status through the full handler (authentication, rate
// limiting, request log on, SQLite file) against a bare node:http server answering a constant
// JSON body. Same load generator (autocannon), same run, alternating, median of several rounds.
//
//   pnpm build && node bench/status-throughput.mjs [--rounds 5] [--seconds 8] [--connections 32]
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon from "autocannon";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    seconds: { type: "string", default: "8" },
    connections: { type: "string", default: "32" },
  },
});
const rounds = Number(values.rounds);
const duration = Number(values.seconds);
const connections = Number(values.connections);

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const cli = here("../packages/cli/dist/cli.js");
const dir = mkdtempSync(join(tmpdir(), "tminus-bench-"));
const db = join(dir, "bench.db");
const config = join(dir, "config.json");
// The limit is raised so the benchmark measures the work of rate limiting, not refusals.
writeFileSync(
  config,
  JSON.stringify({ plans: { starter: { requests_per_minute: 1_000_000_000 } } }),
);

function start(args) {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (c) => {
      out += c;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ child, url: m[1] });
    });
    child.once("exit", (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
}

const key = JSON.parse(
  execFileSync(
    process.execPath,
    [
      cli,
      "keys",
      "create",
      "--env",
      "production",
      "--account",
      "bench",
      "--db",
      db,
      "--config",
      config,
      "--json",
    ],
    { encoding: "utf8" },
  ),
);
const tminus = await start([cli, "serve", "--port", "0", "--db", db, "--config", config]);
const bare = await start([here("./bare-server.mjs")]);
const headers = { authorization: `Bearer ${key.secret}` };
const created = await fetch(`${tminus.url}/api/v1/timers`, {
  method: "POST",
  headers: { ...headers, "content-type": "application/json", "idempotency-key": "bench" },
  body: JSON.stringify({ name: "Bench", type: "fixed", deadline_at: "2030-01-01T00:00:00Z" }),
});
const timerId = (await created.json()).data.id;

function load(url, hdrs) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration, headers: hdrs }, (err, result) => {
      if (err) reject(err);
      else resolve(result);
    });
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// Warm both servers (JIT, SQLite page cache) before measuring.
await load(`${bare.url}/`, {});
await load(`${tminus.url}/api/v1/timers/${timerId}/status`, headers);

const rows = { bare: [], tminus: [] };
for (let r = 0; r < rounds; r++) {
  const b = await load(`${bare.url}/`, {});
  const t = await load(`${tminus.url}/api/v1/timers/${timerId}/status`, headers);
  if (t.non2xx > 0 || t.errors > 0)
    throw new Error(`handler answered ${t.non2xx} non-2xx, ${t.errors} errors`);
  rows.bare.push({ rps: b.requests.average, p99: b.latency.p99 });
  rows.tminus.push({ rps: t.requests.average, p99: t.latency.p99 });
  console.log(
    `round ${r + 1}: bare ${b.requests.average.toFixed(0)} req/s p99 ${b.latency.p99} ms | ` +
      `tminus ${t.requests.average.toFixed(0)} req/s p99 ${t.latency.p99} ms | ratio ${(t.requests.average / b.requests.average).toFixed(3)}`,
  );
}
const bareRps = median(rows.bare.map((x) => x.rps));
const tRps = median(rows.tminus.map((x) => x.rps));
const ratios = rows.tminus.map((t, i) => t.rps / rows.bare[i].rps);
console.log(
  `\nmedian of ${rounds} rounds (${duration} s, ${connections} connections each):\n` +
    `  bare node:http   ${bareRps.toFixed(0)} req/s, p99 ${median(rows.bare.map((x) => x.p99))} ms\n` +
    `  tminus /status   ${tRps.toFixed(0)} req/s, p99 ${median(rows.tminus.map((x) => x.p99))} ms\n` +
    `  throughput ratio ${median(ratios).toFixed(3)} (median of per-round ratios; target >= 0.5)`,
);

tminus.child.kill("SIGTERM");
bare.child.kill("SIGTERM");
await new Promise((r) => setTimeout(r, 300));
rmSync(dir, { recursive: true, force: true });
