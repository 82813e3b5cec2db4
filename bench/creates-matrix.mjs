// Why creates/s differs between benches: one built checkout's `tminus serve` per setting (each
// its own SQLite file, the bench's config lifting quotas), POST /api/v1/timers with a fresh
// Idempotency-Key each, the settings loaded in turn each round (order reversed every other
// round). A setting is `connections:log-level[:status]`; `:status` runs a status load of the
// same length on that server before each create load, as hot-path-ab.mjs does. Prints
// creates/s, server CPU per create (all threads, less the idle rate measured for a second
// before), creates per commit (counted in the server by bench/count-commits.cjs), the timers
// in the file as it grows, medians. `--nice=-15` starts the servers at that priority (root
// only below 0): they then run the moment a request arrives, as on a quiet machine.
//
//   node bench/creates-matrix.mjs [--build .] [--rounds 5] [--seconds 3] [--nice N]
//                                 [--settings 16:info,32:info,16:warn,32:warn,16:info:status]
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon from "autocannon";

const { values } = parseArgs({
  options: {
    build: { type: "string", default: fileURLToPath(new URL("..", import.meta.url)) },
    rounds: { type: "string", default: "5" },
    seconds: { type: "string", default: "3" },
    settings: { type: "string", default: "16:info,32:info,16:warn,32:warn,16:info:status" },
    nice: { type: "string" },
  },
});
const cli = join(resolve(values.build), "packages/cli/dist/cli.js");
const duration = Number(values.seconds);
const dir = mkdtempSync(join(tmpdir(), "tminus-creates-"));
const config = join(dir, "config.json");
writeFileSync(
  config,
  JSON.stringify({ plans: { starter: { requests_per_minute: 1e9, new_timers_per_cycle: 1e9 } } }),
);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const cpuMicros = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(f[11]) + Number(f[12])) * 1e6) / 100;
};
const run = (opts) => new Promise((ok, fail) => autocannon(opts, (e, r) => (e ? fail(e) : ok(r))));

const settings = [];
for (const name of values.settings.split(",")) {
  const [connections, level, status] = name.split(":");
  const db = join(dir, `${name.replaceAll(":", "-")}.db`);
  const common = ["--db", db, "--config", config];
  const key = JSON.parse(
    execFileSync(
      process.execPath,
      [cli, "keys", "create", "--env", "production", "--account", "bench", ...common, "--json"],
      { encoding: "utf8" },
    ),
  );
  const node = [
    process.execPath,
    "--require",
    fileURLToPath(new URL("./count-commits.cjs", import.meta.url)),
    cli,
    "serve",
    "--port",
    "0",
    ...common,
    "--log-level",
    level,
    "--log-format",
    "json",
  ];
  const argv = values.nice ? ["nice", "-n", values.nice, ...node] : node;
  const child = spawn(argv[0], argv.slice(1), { stdio: ["ignore", "pipe", "pipe"] });
  const commitCounts = [];
  child.stderr.on("data", (c) => {
    const text = String(c);
    const m = /count-commits (\d+) (\d+)/.exec(text);
    if (m) commitCounts.shift()?.({ commits: Number(m[1]), creates: Number(m[2]) });
    else process.stderr.write(text);
  });
  const counted = () =>
    new Promise((ok) => {
      commitCounts.push(ok);
      child.kill("SIGUSR2");
    });
  const url = await new Promise((ok) => {
    let out = "";
    child.stdout.on("data", (c) => {
      if (out === null) return; // request lines: read and dropped
      out += c;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        out = null;
        ok(m[1]);
      }
    });
  });
  const auth = { authorization: `Bearer ${key.secret}` };
  const body = JSON.stringify({
    name: "Bench",
    type: "fixed",
    deadline_at: "2030-01-01T00:00:00Z",
  });
  const first = await (
    await fetch(`${url}/api/v1/timers`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json", "idempotency-key": "bench" },
      body,
    })
  ).json();
  settings.push({
    name,
    child,
    db,
    rows: 1,
    rates: [],
    cpus: [],
    batches: [],
    counted,
    status: status === "status",
    statusLoad: { url: `${url}/api/v1/timers/${first.data.id}/status`, headers: auth },
    creates: {
      url: `${url}/api/v1/timers`,
      method: "POST",
      connections: Number(connections),
      headers: { ...auth, "content-type": "application/json", "idempotency-key": "k-[<id>]" },
      body,
      idReplacement: true,
    },
  });
}
for (const s of settings) await run({ ...s.creates, duration: 1 });
console.log(
  `${cli}; load ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}; ${values.rounds} rounds x ${duration} s`,
);
for (let r = 0; r < Number(values.rounds); r++) {
  const line = [];
  for (const s of r % 2 ? [...settings].reverse() : settings) {
    if (s.status) await run({ ...s.statusLoad, connections: s.creates.connections, duration });
    const idleFrom = cpuMicros(s.child.pid);
    const idleStart = performance.now();
    await new Promise((ok) => setTimeout(ok, 1000));
    const idleRate = (cpuMicros(s.child.pid) - idleFrom) / (performance.now() - idleStart);
    const countedBefore = await s.counted();
    const before = cpuMicros(s.child.pid);
    const started = performance.now();
    const result = await run({ ...s.creates, duration });
    const used = cpuMicros(s.child.pid) - before - idleRate * (performance.now() - started);
    const countedAfter = await s.counted();
    const batch =
      (countedAfter.creates - countedBefore.creates) /
      (countedAfter.commits - countedBefore.commits);
    s.batches.push(batch);
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`${s.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    s.rows += result.requests.total;
    s.rates.push(result.requests.average);
    s.cpus.push(used / result.requests.total);
    line.push(
      `${s.name} ${result.requests.average.toFixed(0)}/s ${(used / result.requests.total).toFixed(1)} us ${batch.toFixed(2)}/commit, p50 ${result.latency.p50} p99 ${result.latency.p99} ms (${s.rows} timers)`,
    );
  }
  console.log(`round ${r + 1}: ${line.join("; ")}; load ${loadavg()[0].toFixed(1)}`);
}
for (const s of settings)
  console.log(
    `${s.name}: ${median(s.rates).toFixed(0)} creates/s, ${median(s.cpus).toFixed(1)} us per create, ${median(s.batches).toFixed(2)} creates per commit (medians); file ${(statSync(s.db).size / 1e6).toFixed(0)} MB`,
  );
console.log(
  `load at the end ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}`,
);
for (const s of settings) s.child.kill("SIGTERM");
await Promise.all(settings.map((s) => new Promise((ok) => s.child.once("exit", ok))));
rmSync(dir, { recursive: true, force: true });
