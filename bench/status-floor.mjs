// Where the status route's CPU goes, against a floor (issue 27: status at 0.7 of a bare
// node:http server). Four servers, each in a process of its own, loaded in turn with
// GET /api/v1/timers/{id}/status (the order rotating each round), 16 connections:
//   bare        a fixed body and two headers (hot-path-ab.mjs's baseline)
//   floor       the least work the route's answer needs (bench/_floor-server.mjs): the key
//               hashed and found, a request counter, a request id, the remaining time from
//               @tminus/core, the envelope, tminus's seven headers; nothing else
//   floor+line  the floor and a JSON request line to stdout, as `tminus serve` writes one
//   tminus      `tminus serve` of this checkout (log level info, its default)
// The figure is the server's CPU per request (user + system, all threads, from /proc, net of
// what it spends idle), medians of the rounds; each server's stdout is read by this process,
// as a log collector would.
//
//   npx -y pnpm@10 build && node bench/status-floor.mjs [--rounds 7] [--seconds 3]
//     [--connections 16]
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { load, measured, median, startListening as start } from "./_measure.mjs";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "7" },
    seconds: { type: "string", default: "3" },
    connections: { type: "string", default: "16" },
  },
});
const rounds = Number(values.rounds);
const duration = Number(values.seconds);
const connections = Number(values.connections);
/** Autocannon's options for a server's load: this run's connections and length. */
const withRun = (opts) => ({ connections, duration, ...opts });
const here = fileURLToPath(new URL("..", import.meta.url));
const cli = join(here, "packages/cli/dist/cli.js");

const dir = mkdtempSync(join(tmpdir(), "tminus-floor-"));
const config = join(dir, "config.json");
writeFileSync(
  config,
  JSON.stringify({ plans: { starter: { requests_per_minute: 1e9, new_timers_per_cycle: 1e9 } } }),
);

/** `tminus serve` on a file of its own, with a key and a timer. */
async function startTminus(name) {
  const common = ["--db", join(dir, `${name}.db`), "--config", config];
  const key = JSON.parse(
    execFileSync(
      process.execPath,
      [cli, "keys", "create", "--env", "production", "--account", "bench", ...common, "--json"],
      { encoding: "utf8" },
    ),
  );
  const server = await start([cli, "serve", "--port", "0", ...common, "--log-format", "json"]);
  const headers = { authorization: `Bearer ${key.secret}` };
  const created = await fetch(`${server.url}/api/v1/timers`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json", "idempotency-key": "floor" },
    body: JSON.stringify({ name: "Bench", type: "fixed", deadline_at: "2030-01-01T00:00:00Z" }),
  });
  const timer = await created.json();
  return {
    ...server,
    secret: key.secret,
    timerId: timer.data.id,
    load: { url: `${server.url}/api/v1/timers/${timer.data.id}/status`, headers },
  };
}

const tminus = await startTminus("tminus");
const servers = { tminus };
for (const mode of ["bare", "floor", "floor+line"]) {
  const s = await start([
    join(here, "bench/_floor-server.mjs"),
    mode,
    tminus.secret,
    tminus.timerId,
  ]);
  servers[mode] = {
    ...s,
    load: { url: `${s.url}/api/v1/timers/${tminus.timerId}/status`, headers: tminus.load.headers },
  };
}
const names = Object.keys(servers);
console.log(
  `load ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}; ${rounds} rounds x ${duration} s, ${connections} connections\n`,
);
for (const name of names) await load(withRun({ ...servers[name].load, duration: 2 }));

const cpu = Object.fromEntries(names.map((n) => [n, []]));
const rate = Object.fromEntries(names.map((n) => [n, []]));
for (let r = 0; r < rounds; r++) {
  const order = names.map((_, i) => names[(i + r) % names.length]);
  const line = [];
  for (const name of order) {
    const m = await measured(servers[name].child.pid, withRun(servers[name].load));
    cpu[name].push(m.cpu);
    rate[name].push(m.rate);
    line.push(`${name} ${m.cpu.toFixed(1)} us`);
  }
  console.log(`round ${r + 1}: ${line.join(", ")}; load ${loadavg()[0].toFixed(1)}`);
}
const bare = median(cpu.bare);
console.log(`\n== medians of ${rounds} rounds (server CPU per status request, net of idle)`);
// The machine's speed drifts from round to round (other tenants): the ratio within each round,
// where the servers ran seconds apart, is the steadier figure.
for (const name of names) {
  const c = median(cpu[name]);
  const perRound = median(cpu[name].map((x, i) => cpu.bare[i] / x));
  console.log(
    `${name.padEnd(12)} ${c.toFixed(1).padStart(6)} us  bare / this ${(bare / c).toFixed(3)} ` +
      `(median of the rounds' ratios ${perRound.toFixed(3)})  over bare ` +
      `${(c - bare).toFixed(1).padStart(5)} us  ${median(rate[name]).toFixed(0)}/s`,
  );
}
console.log(
  `load at the end ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}`,
);
for (const s of Object.values(servers)) s.child.kill("SIGTERM");
await Promise.all(Object.values(servers).map((s) => new Promise((ok) => s.child.once("exit", ok))));
rmSync(dir, { recursive: true, force: true });
