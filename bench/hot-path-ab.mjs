// Two builds of `tminus serve` on the hot path, A/B in one run: each its own process and its
// own SQLite file, loaded in turn (the order alternating each round) with
//   1. GET /api/v1/timers/{id}/status (and a bare node:http server in a process of its own
//      answering the same body, the issue's baseline), and
//   2. POST /api/v1/timers with a fresh Idempotency-Key each (creates/s).
// The figure that survives a busy machine is the servers' own CPU time per request (from
// /proc/<pid>/stat, user + system, all threads, over each load, less the process's idle CPU
// measured just before); throughput is printed too.
// Medians of the rounds. Build both first (`pnpm build`); the baseline is any other checkout
// of this repository, e.g. `git worktree add /tmp/base <commit> && (cd /tmp/base && pnpm i)`.
//
//   node bench/hot-path-ab.mjs --baseline /tmp/base [--rounds 7] [--seconds 3]
//                              [--connections 16] [--log-level info|warn] [--skip-creates]
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { load, measured, median, startListening as start } from "./_measure.mjs";

const { values } = parseArgs({
  options: {
    baseline: { type: "string" },
    rounds: { type: "string", default: "7" },
    seconds: { type: "string", default: "3" },
    connections: { type: "string", default: "16" },
    "log-level": { type: "string", default: "info" },
    "skip-creates": { type: "boolean", default: false },
  },
});
if (!values.baseline) throw new Error("--baseline <another checkout of tminus, built> is required");
const rounds = Number(values.rounds);
const duration = Number(values.seconds);
const connections = Number(values.connections);
const here = fileURLToPath(new URL("..", import.meta.url));
const builds = {
  A: join(resolve(values.baseline), "packages/cli/dist/cli.js"),
  B: join(here, "packages/cli/dist/cli.js"),
};

/** Autocannon's options for a load: this run's connections and length, unless given. */
const withRun = (opts) => ({ connections, duration, ...opts });

const dir = mkdtempSync(join(tmpdir(), "tminus-ab-"));
const config = join(dir, "config.json");
writeFileSync(
  config,
  JSON.stringify({ plans: { starter: { requests_per_minute: 1e9, new_timers_per_cycle: 1e9 } } }),
);
const servers = {};
for (const [name, cli] of Object.entries(builds)) {
  const db = join(dir, `${name}.db`);
  const common = ["--db", db, "--config", config];
  const key = JSON.parse(
    execFileSync(
      process.execPath,
      [cli, "keys", "create", "--env", "production", "--account", "bench", ...common, "--json"],
      { encoding: "utf8" },
    ),
  );
  const server = await start([
    cli,
    "serve",
    "--port",
    "0",
    ...common,
    "--log-level",
    values["log-level"],
    "--log-format",
    "json",
  ]);
  const auth = { authorization: `Bearer ${key.secret}` };
  const timer = await (
    await fetch(`${server.url}/api/v1/timers`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json", "idempotency-key": "bench" },
      body: JSON.stringify({ name: "Bench", type: "fixed", deadline_at: "2030-01-01T00:00:00Z" }),
    })
  ).json();
  servers[name] = {
    ...server,
    auth,
    statusUrl: `${server.url}/api/v1/timers/${timer.data.id}/status`,
  };
}
const statusBody = Buffer.from(
  await (await fetch(servers.B.statusUrl, { headers: servers.B.auth })).arrayBuffer(),
);
const bodyFile = join(dir, "status-body.json");
writeFileSync(bodyFile, statusBody);
const bare = await start([
  "-e",
  `const body = require("node:fs").readFileSync(process.argv[1]);
require("node:http").createServer((_req, res) => {
  res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": body.byteLength });
  res.end(body);
}).listen(0, "127.0.0.1", function () { console.log("listening on http://127.0.0.1:" + this.address().port); });`,
  bodyFile,
]);

const status = (name) => ({ url: servers[name].statusUrl, headers: servers[name].auth });
const creates = (name) => ({
  url: `${servers[name].url}/api/v1/timers`,
  method: "POST",
  headers: {
    ...servers[name].auth,
    "content-type": "application/json",
    "idempotency-key": `${name}-[<id>]`,
  },
  body: JSON.stringify({ name: "Bench", type: "fixed", deadline_at: "2030-01-01T00:00:00Z" }),
  idReplacement: true,
});
console.log(
  `A: ${builds.A}\nB: ${builds.B}\nload ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}; ` +
    `${rounds} rounds x ${duration} s, ${connections} connections, log level ${values["log-level"]}\n`,
);
for (const name of ["A", "B"]) await load(withRun({ ...status(name), duration: 2 }));
await load(withRun({ url: `${bare.url}/`, duration: 2 }));

const figures = { bare: [], A: [], B: [], cA: [], cB: [], rA: [], rB: [], crA: [], crB: [] };
for (let r = 0; r < rounds; r++) {
  const order = r % 2 ? ["B", "A"] : ["A", "B"];
  const b = await measured(bare.child.pid, withRun({ url: `${bare.url}/` }));
  figures.bare.push(b.cpu);
  const line = [`round ${r + 1}: bare ${b.cpu.toFixed(1)} us`];
  for (const name of order) {
    const s = await measured(servers[name].child.pid, withRun(status(name)));
    figures[name].push(s.cpu);
    figures[`r${name}`].push(s.rate);
    line.push(`status ${name} ${s.cpu.toFixed(1)} us (${s.rate.toFixed(0)}/s)`);
  }
  if (!values["skip-creates"]) {
    for (const name of order) {
      const c = await measured(servers[name].child.pid, withRun(creates(name)));
      figures[`c${name}`].push(c.cpu);
      figures[`cr${name}`].push(c.rate);
      line.push(`create ${name} ${c.cpu.toFixed(1)} us (${c.rate.toFixed(0)}/s)`);
    }
  }
  console.log(`${line.join(", ")}; load ${loadavg()[0].toFixed(1)}`);
}
const bareCpu = median(figures.bare);
console.log(`\n== medians of ${rounds} rounds (server CPU per request, all threads, net of idle)`);
console.log(`bare node:http, own process: ${bareCpu.toFixed(1)} us`);
for (const name of ["A", "B"]) {
  const cpu = median(figures[name]);
  console.log(
    `${name} status: ${cpu.toFixed(1)} us (bare / ${name} ${(bareCpu / cpu).toFixed(3)}), ${median(figures[`r${name}`]).toFixed(0)}/s` +
      (values["skip-creates"]
        ? ""
        : `; creates: ${median(figures[`c${name}`]).toFixed(1)} us, ${median(figures[`cr${name}`]).toFixed(0)}/s`),
  );
}
console.log(`B / A status CPU: ${(median(figures.B) / median(figures.A)).toFixed(3)}`);
if (!values["skip-creates"])
  console.log(`B / A create CPU: ${(median(figures.cB) / median(figures.cA)).toFixed(3)}`);
console.log(
  `load at the end ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}`,
);

for (const s of [servers.A, servers.B, bare]) s.child.kill("SIGTERM");
await Promise.all(
  [servers.A, servers.B, bare].map((s) => new Promise((ok) => s.child.once("exit", ok))),
);
rmSync(dir, { recursive: true, force: true });
