// Render analytics on the image route, measured in one run: `GET /t/{id}/countdown.gif`
// through two `tminus serve` processes that differ only in `analytics.enabled`, each on its own
// SQLite file, loaded at the same time with the same autocannon settings (half the
// connections each), so the machine's other load weighs on both alike. Two loads:
//   - one viewer (the same address and agent on every request: a hot email);
//   - a new recipient id `r` on every request (every view a new viewer row: the worst case).
// Reports each round's throughput ratio on/off and, steadier on a shared machine, the server
// process's CPU time per request (utime + stime from /proc), on/off; medians over the rounds.
// Build first: `pnpm build`.
//
//   node bench/analytics.bench.mjs [--rounds 5] [--seconds 5] [--connections 32]
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
  },
});
const rounds = Number(values.rounds);
const duration = Number(values.seconds);
const connections = Number(values.connections);
const cli = fileURLToPath(new URL("../packages/cli/dist/cli.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "tminus-analytics-bench-"));

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const load = (opts) =>
  new Promise((resolve, reject) =>
    autocannon({ connections: Math.max(1, connections / 2), duration, ...opts }, (e, r) =>
      e ? reject(e) : resolve(r),
    ),
  );

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  // utime and stime are fields 14 and 15 of stat, counted after "pid (comm)".
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function start(args) {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    let listening = false;
    child.stdout.on("data", (c) => {
      if (listening) return; // request lines: read and dropped, never kept
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

/** A `tminus serve` with analytics on or off, and the GIF path of a published timer on it. */
async function server(enabled) {
  const db = join(dir, `${enabled ? "on" : "off"}.db`);
  const config = join(dir, `${enabled ? "on" : "off"}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      plans: { starter: { requests_per_minute: 1e9, new_timers_per_cycle: 1e9 } },
      analytics: { enabled },
    }),
  );
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
  const s = await start([cli, "serve", "--port", "0", "--db", db, "--config", config]);
  const auth = { authorization: `Bearer ${key.secret}` };
  const timer = await (
    await fetch(`${s.url}/api/v1/timers`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json", "idempotency-key": "bench" },
      body: JSON.stringify({ name: "Bench", type: "fixed", deadline_at: "2030-01-01T00:00:00Z" }),
    })
  ).json();
  await fetch(`${s.url}/api/v1/timers/${timer.data.id}/publish`, {
    method: "POST",
    headers: { ...auth, "if-match": timer.data.revision },
  });
  return { ...s, auth, id: timer.data.id, gif: `${s.url}/t/${timer.data.id}/countdown.gif` };
}

const on = await server(true);
const off = await server(false);
let recipient = 0;
const scenarios = {
  "one viewer": (s) => ({ url: s.gif, headers: { "user-agent": "BenchMail/1.0" } }),
  "a new recipient each request": (s) => ({
    url: s.gif,
    requests: [
      { setupRequest: (req) => ({ ...req, path: `${new URL(s.gif).pathname}?r=b${++recipient}` }) },
    ],
  }),
};

console.log(
  `machine: ${cpus().length} x ${cpus()[0]?.model}, Node ${process.version}, load ${loadavg()[0].toFixed(1)}; ` +
    `${rounds} rounds x ${duration} s, ${connections} connections\n`,
);
for (const s of [on, off]) await load({ url: s.gif, duration: 2 });

const ratios = Object.fromEntries(Object.keys(scenarios).map((k) => [k, []]));
const cpuRatios = Object.fromEntries(Object.keys(scenarios).map((k) => [k, []]));
for (let r = 0; r < rounds; r++) {
  for (const [name, opts] of Object.entries(scenarios)) {
    // Both at once, so whatever else the machine does in those seconds weighs on both alike.
    const got = new Map();
    const cpu = new Map();
    const before = new Map([on, off].map((s) => [s, cpuSeconds(s.child.pid)]));
    const results = await Promise.all([on, off].map((s) => load(opts(s))));
    [on, off].forEach((s, i) => {
      got.set(s, results[i].requests.average);
      cpu.set(s, ((cpuSeconds(s.child.pid) - before.get(s)) * 1e6) / results[i].requests.total);
    });
    // A round where either side stalled completely (the shared machine) says nothing.
    if (got.get(on) > 0 && got.get(off) > 0) {
      ratios[name].push(got.get(on) / got.get(off));
      cpuRatios[name].push(cpu.get(on) / cpu.get(off));
    }
    console.log(
      `round ${r + 1} ${name}: on ${got.get(on).toFixed(0)} req/s ${cpu.get(on).toFixed(0)} us CPU/req, ` +
        `off ${got.get(off).toFixed(0)} req/s ${cpu.get(off).toFixed(0)} us CPU/req, ` +
        `throughput ratio ${(got.get(on) / got.get(off)).toFixed(3)}, CPU ratio ${(cpu.get(on) / cpu.get(off)).toFixed(3)}`,
    );
  }
}

// What was counted (flushed by the read), so the run shows counting really happened.
const read = await (
  await fetch(`${on.url}/api/v1/timers/${on.id}/analytics`, { headers: on.auth })
).json();
console.log(
  `\ncounted on the "on" server: ${read.data.reduce((n, b) => n + b.views, 0)} views, ` +
    `${read.data.reduce((n, b) => n + b.unique_viewers, 0)} unique viewers`,
);
for (const [name, xs] of Object.entries(ratios)) {
  console.log(
    `GIF route, analytics on / off, ${name}: median throughput ratio ${median(xs).toFixed(3)}, ` +
      `median CPU-per-request ratio ${median(cpuRatios[name]).toFixed(3)}`,
  );
}
for (const s of [on, off]) s.child.kill("SIGTERM");
await new Promise((r) => setTimeout(r, 500));
rmSync(dir, { recursive: true, force: true });
