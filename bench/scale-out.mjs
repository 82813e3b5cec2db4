// Benchmark: scaling out on PostgreSQL. Real `tminus serve --no-worker` processes (the built
// CLI) under autocannon, in one run:
//   - status (GET /api/v1/timers/{id}/status), creates (POST /api/v1/timers, a fresh
//     Idempotency-Key each) and email GIFs of a personalized timer (a deadline each), on SQLite
//     with one process, on PostgreSQL with one process and with two processes on one database
//     (the load split between them);
//   - the ratio two/one on PostgreSQL, and PostgreSQL/SQLite for one process;
//   - the CPU used per 1,000 requests by the tminus processes, the PostgreSQL backends serving
//     them and the load generator, and the cores all of them kept busy (where the cores went);
//   - the database round trips of each kind of request, counted in process through a pool that
//     counts every statement it sends (sequential requests, and 50 at once, where the request
//     log is written in fewer batches).
// Alternating order, median of several rounds.
//
//   pnpm build && node bench/scale-out.mjs [--rounds 5] [--seconds 5] [--connections 32]
//     [--accounts 8] [--synchronous-commit off] [--prepared-statements on|off|both]
//     [--pg postgres://postgres@127.0.0.1:5432]
//     [--cpu-quota 0.4]
//
// --cpu-quota C gives each tminus process a CPU budget of C cores, in a cgroup of its own
// (Linux, cgroup v1 or v2, as root), as if each ran on a small machine of its own. On a
// machine whose cores one process already fills (with the database and the load generator
// beside it), two processes cannot show more than the cores left; with a budget per process,
// what the ratio two/one measures is the design: whether a second process adds its budget's
// worth of requests, or the shared database (locks, hot rows, round trips) holds it back.
import { execFile, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, promisify } from "node:util";
import autocannon from "autocannon";
import { createAdmin, createHandler, resolveConfig } from "../packages/http/dist/index.js";
import { postgresStore } from "../packages/store/dist/postgres.js";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    seconds: { type: "string", default: "5" },
    connections: { type: "string", default: "32" },
    accounts: { type: "string", default: "8" },
    // "off": the tminus processes commit without waiting for the WAL flush (docs/deploy.md).
    "synchronous-commit": { type: "string" },
    // Cores each tminus process may use (a cgroup each); unset: no limit.
    "cpu-quota": { type: "string" },
    // PostgreSQL statements: "on" (prepared, the default), "off" (all unnamed:
    // ?prepared_statements=off), or "both": every pg x1 scenario also on a process with them off.
    "prepared-statements": { type: "string", default: "on" },
    pg: {
      type: "string",
      default: process.env.TMINUS_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432",
    },
  },
});
const rounds = Number(values.rounds);
const duration = Number(values.seconds);
const connections = Number(values.connections);
const accountCount = Number(values.accounts);

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const cli = here("../packages/cli/dist/cli.js");
// pg is the CLI's dependency, not the workspace root's.
const pg = createRequire(here("../packages/cli/package.json"))("pg");
const run = promisify(execFile);

const dbUrl = (name) => {
  const url = new URL(values.pg);
  url.pathname = `/${name}`;
  return url.toString();
};
const dbName = `tminus_bench_${randomUUID().replaceAll("-", "")}`;
const admin = new pg.Client({ connectionString: dbUrl("postgres") });
await admin.connect();
await admin.query(`CREATE DATABASE ${dbName}`);
const pgUrl = (() => {
  const url = new URL(dbUrl(dbName));
  const sc = values["synchronous-commit"];
  if (sc) url.searchParams.set("options", `-c synchronous_commit=${sc}`);
  return url.toString();
})();
const prepared = values["prepared-statements"];
if (!["on", "off", "both"].includes(prepared))
  throw new Error("--prepared-statements: on, off or both");
/** The same database, with tminus' prepared statements off. */
const unnamedUrl = (() => {
  const url = new URL(pgUrl);
  url.searchParams.set("prepared_statements", "off");
  return url.toString();
})();
const dir = mkdtempSync(join(tmpdir(), "tminus-scale-"));
const sqliteFile = join(dir, "bench.db");
const configFile = join(dir, "config.json");
const configInput = {
  // Limits out of the way: the benchmark measures the work of checking them, not refusals.
  plans: {
    starter: {
      requests_per_minute: 1_000_000_000,
      new_timers_per_cycle: 1_000_000_000,
      max_keys: 100,
    },
  },
};
writeFileSync(configFile, JSON.stringify(configInput));

const quota = values["cpu-quota"] === undefined ? null : Number(values["cpu-quota"]);
if (quota !== null && !(quota > 0 && quota <= 64)) throw new Error("--cpu-quota: cores, e.g. 0.4");
const cgroups = [];
/** Puts a process (all its threads, and those it starts later) in a cgroup of `quota` cores. */
function capCpu(pid) {
  const name = `tminus-bench-${process.pid}-${cgroups.length}`;
  const period = 100_000;
  const us = Math.round(quota * period);
  if (existsSync("/sys/fs/cgroup/cpu/cpu.cfs_quota_us")) {
    const d = `/sys/fs/cgroup/cpu/${name}`;
    mkdirSync(d);
    writeFileSync(`${d}/cpu.cfs_period_us`, String(period));
    writeFileSync(`${d}/cpu.cfs_quota_us`, String(us));
    writeFileSync(`${d}/cgroup.procs`, String(pid));
    cgroups.push(d);
  } else if (existsSync("/sys/fs/cgroup/cgroup.controllers")) {
    const d = `/sys/fs/cgroup/${name}`;
    mkdirSync(d);
    writeFileSync(`${d}/cpu.max`, `${us} ${period}`);
    writeFileSync(`${d}/cgroup.procs`, String(pid));
    cgroups.push(d);
  } else {
    throw new Error("--cpu-quota needs Linux cgroups (v1 cpu controller or v2) and root");
  }
}

const children = [];
function serve(db) {
  const child = spawn(
    process.execPath,
    [cli, "serve", "--port", "0", "--no-worker", "--db", db, "--config", configFile],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  children.push(child);
  if (quota !== null) capCpu(child.pid);
  return new Promise((resolve, reject) => {
    let out = "";
    let listening = false;
    child.stdout.on("data", (c) => {
      // Request lines (one per request at the default level) are read and dropped: kept, the
      // text grew by every line and was searched whole on every chunk, and this process spent
      // a millisecond of CPU per request on it, beside the servers it measures.
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

async function keys(db) {
  const out = [];
  for (let i = 0; i < accountCount; i++) {
    const { stdout } = await run(process.execPath, [
      cli,
      ...["keys", "create", "--env", "production", "--account", `bench-${i}`, "--json"],
      ...["--db", db, "--config", configFile],
    ]);
    out.push(JSON.parse(stdout).secret);
  }
  return out;
}

process.stderr.write("setting up: keys, servers, timers\n");
const sqliteKeys = await keys(sqliteFile);
const pgKeys = await keys(pgUrl);
const sqliteServer = await serve(sqliteFile);
const servedUrl = prepared === "off" ? unnamedUrl : pgUrl;
const [pgA, pgB, pgU] = await Promise.all([
  serve(servedUrl),
  serve(servedUrl),
  prepared === "both" ? serve(unnamedUrl) : null,
]);

async function makeTimer(url, secret) {
  const res = await fetch(`${url}/api/v1/timers`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${secret}`,
      "content-type": "application/json",
      "idempotency-key": randomUUID(),
    },
    body: JSON.stringify({ name: "Bench", type: "fixed", deadline_at: "2030-01-01T00:00:00Z" }),
  });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`);
  return (await res.json()).data.id;
}
// One timer per account: [secret, timer id] pairs.
const pairsOf = async (url, secrets) =>
  Promise.all(secrets.map(async (secret) => [secret, await makeTimer(url, secret)]));
const sqlitePairs = await pairsOf(sqliteServer.url, sqliteKeys);
const pgPairs = await pairsOf(pgA.url, pgKeys);

// A published personalized timer: each email image names its own deadline (`?deadline=`), so
// (almost) every request renders a 60-frame GIF in the tminus process: CPU there, one read
// (the timer) in the database.
async function publishedPersonalized(url, secret) {
  const headers = { authorization: `Bearer ${secret}`, "content-type": "application/json" };
  const made = await fetch(`${url}/api/v1/timers`, {
    method: "POST",
    headers: { ...headers, "idempotency-key": randomUUID() },
    body: JSON.stringify({
      name: "Personal",
      type: "personalized",
      personalization: { source: "deadline", require_signature: false },
    }),
  });
  const timer = (await made.json()).data;
  if (!timer?.id) throw new Error(`personalized timer: ${made.status}`);
  const res = await fetch(`${url}/api/v1/timers/${timer.id}/publish`, {
    method: "POST",
    headers: { authorization: `Bearer ${secret}`, "if-match": timer.revision },
  });
  if (res.status !== 200) throw new Error(`publish: ${res.status} ${await res.text()}`);
  return timer.id;
}
const sqliteGif = await publishedPersonalized(sqliteServer.url, sqliteKeys[0]);
const pgGif = await publishedPersonalized(pgA.url, pgKeys[0]);

const TIMER_BODY = JSON.stringify({
  name: "Bench",
  type: "fixed",
  deadline_at: "2030-01-01T00:00:00Z",
});

/**
 * One autocannon run against one URL; resolves with the requests done, seconds and p99.
 * `pairs` are [secret, timer id]: status requests go to them in turn, creates use their keys;
 * for GIFs it is the published timer's id.
 */
function load(url, kind, pairs, conns) {
  let next = 0;
  const pick = () => pairs[next++ % pairs.length];
  const request =
    kind === "gif"
      ? {
          method: "GET",
          setupRequest: (req) => ({
            ...req,
            // Deadlines 1 hour to 30 days away, a second apart: distinct images.
            path: `/t/${pairs}/countdown.gif?deadline=${Math.floor(Date.now() / 1000) + 3600 + Math.floor(Math.random() * 2_592_000)}`,
          }),
        }
      : kind === "status"
        ? {
            method: "GET",
            setupRequest: (req) => {
              const [secret, timerId] = pick();
              return {
                ...req,
                path: `/api/v1/timers/${timerId}/status`,
                headers: { authorization: `Bearer ${secret}` },
              };
            },
          }
        : {
            method: "POST",
            path: "/api/v1/timers",
            body: TIMER_BODY,
            // Every create its own key and the accounts in turn: creates of one account queue on
            // its allowance counter (docs/store-adapters.md), which no number of processes lifts.
            setupRequest: (req) => ({
              ...req,
              headers: {
                "content-type": "application/json",
                authorization: `Bearer ${pick()[0]}`,
                "idempotency-key": randomUUID(),
              },
            }),
          };
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: conns, duration, requests: [request] }, (err, r) => {
      if (err) return reject(err);
      if (r.non2xx > 0 || r.errors > 0) {
        return reject(new Error(`${kind} ${url}: ${r.non2xx} non-2xx, ${r.errors} errors`));
      }
      resolve({ total: r.requests.total, seconds: r.duration, p99: r.latency.p99 });
    });
  });
}

/** CPU seconds (user + system) a process has used so far, from /proc. */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks
  } catch {
    return Number.NaN;
  }
}

/** CPU seconds of this database's server processes (its connections), by pid. */
async function databaseCpu() {
  const { rows } = await admin.query("SELECT pid FROM pg_stat_activity WHERE datname = $1", [
    dbName,
  ]);
  return new Map(rows.map((r) => [r.pid, cpuSeconds(r.pid)]));
}

/** One scenario: the load split over `servers`; requests/s, p99 and CPU per 1,000 requests. */
async function scenario(servers, kind, pairs) {
  const before = servers.map((s) => cpuSeconds(s.child.pid));
  const dbBefore = await databaseCpu();
  const selfBefore = process.cpuUsage();
  const parts = await Promise.all(
    servers.map((s) => load(s.url, kind, pairs, Math.round(connections / servers.length))),
  );
  const self = process.cpuUsage(selfBefore);
  const total = parts.reduce((n, p) => n + p.total, 0);
  const rps = parts.reduce((n, p) => n + p.total / p.seconds, 0);
  const serverCpu = servers.reduce((n, s, i) => n + cpuSeconds(s.child.pid) - before[i], 0);
  let dbCpu = 0;
  for (const [pid, after] of await databaseCpu()) {
    if (!Number.isNaN(after)) dbCpu += after - (dbBefore.get(pid) ?? 0);
  }
  const seconds = Math.max(...parts.map((p) => p.seconds));
  return {
    cores: (serverCpu + dbCpu + (self.user + self.system) / 1e6) / seconds,
    dbCpuPerK: (dbCpu / total) * 1000,
    rps,
    p99: Math.max(...parts.map((p) => p.p99)),
    serverCpuPerK: (serverCpu / total) * 1000,
    loaderCpuPerK: ((self.user + self.system) / 1e6 / total) * 1000,
  };
}

// "1 key": every request counts against the same two rate-limit rows (key and account);
// "N keys": the accounts in turn, as a multi-tenant deployment sees them.
const scenarios = {
  "status, 1 key, sqlite x1": () => scenario([sqliteServer], "status", sqlitePairs.slice(0, 1)),
  "status, 1 key, pg x1": () => scenario([pgA], "status", pgPairs.slice(0, 1)),
  "status, 1 key, pg x2": () => scenario([pgA, pgB], "status", pgPairs.slice(0, 1)),
  [`status, ${accountCount} keys, sqlite x1`]: () =>
    scenario([sqliteServer], "status", sqlitePairs),
  [`status, ${accountCount} keys, pg x1`]: () => scenario([pgA], "status", pgPairs),
  [`status, ${accountCount} keys, pg x2`]: () => scenario([pgA, pgB], "status", pgPairs),
  [`create, ${accountCount} keys, sqlite x1`]: () =>
    scenario([sqliteServer], "create", sqlitePairs),
  [`create, ${accountCount} keys, pg x1`]: () => scenario([pgA], "create", pgPairs),
  [`create, ${accountCount} keys, pg x2`]: () => scenario([pgA, pgB], "create", pgPairs),
  "email GIF, own deadline each, sqlite x1": () => scenario([sqliteServer], "gif", sqliteGif),
  "email GIF, own deadline each, pg x1": () => scenario([pgA], "gif", pgGif),
  "email GIF, own deadline each, pg x2": () => scenario([pgA, pgB], "gif", pgGif),
  ...(pgU
    ? {
        "status, 1 key, pg x1, unnamed": () => scenario([pgU], "status", pgPairs.slice(0, 1)),
        [`status, ${accountCount} keys, pg x1, unnamed`]: () => scenario([pgU], "status", pgPairs),
        [`create, ${accountCount} keys, pg x1, unnamed`]: () => scenario([pgU], "create", pgPairs),
        "email GIF, own deadline each, pg x1, unnamed": () => scenario([pgU], "gif", pgGif),
      }
    : {}),
};
const results = Object.fromEntries(Object.keys(scenarios).map((k) => [k, []]));

process.stderr.write("warming up\n");
for (const name of Object.keys(scenarios).filter((n) => !n.endsWith("pg x1"))) {
  await scenarios[name]();
}
const names = Object.keys(scenarios);
for (let r = 0; r < rounds; r++) {
  // Alternate the order, so drift in machine load hits every scenario alike.
  const order = r % 2 ? [...names].reverse() : names;
  for (const name of order) results[name].push(await scenarios[name]());
  process.stderr.write(
    `round ${r + 1}/${rounds}: ${names.map((n) => `${n} ${Math.round(results[n].at(-1).rps)}`).join(", ")} (load ${loadavg()[0].toFixed(1)})\n`,
  );
}

// Round trips per request, in process, on the same database.
function countingPool(pool) {
  const counter = { n: 0 };
  return {
    counter,
    pool: {
      query: (text, params) => {
        counter.n++;
        return pool.query(text, params);
      },
      async connect() {
        const client = await pool.connect();
        return {
          query: (text, params) => {
            counter.n++;
            return client.query(text, params);
          },
          release: (e) => client.release(e),
        };
      },
      end: () => pool.end(),
    },
  };
}
const rawPool = new pg.Pool({ connectionString: pgUrl, max: 10 });
rawPool.on("error", () => {});
const counted = countingPool(rawPool);
const store = postgresStore({ pool: counted.pool });
await store.ready();
const config = resolveConfig(configInput);
const handler = createHandler({ store, config, housekeeping: false });
const issued = await createAdmin({ store, config }).issueKey({
  account: "round-trips",
  environment: "production",
});
const auth = { authorization: `Bearer ${issued.secret}` };
const base = "http://bench";
const call = (method, path, headers = {}, body) =>
  handler(
    new Request(`${base}${path}`, {
      method,
      headers: { ...auth, ...headers, ...(body ? { "content-type": "application/json" } : {}) },
      body,
    }),
  );
const first = await call("POST", "/api/v1/timers", { "idempotency-key": randomUUID() }, TIMER_BODY);
const timer = (await first.json()).data;
const publishable = await call(
  "POST",
  "/api/v1/timers",
  { "idempotency-key": randomUUID() },
  TIMER_BODY,
);
const pub = (await publishable.json()).data;
await call("POST", `/api/v1/timers/${pub.id}/publish`, { "if-match": pub.revision });
await call("GET", "/api/v1/usage/requests?limit=1"); // warms the cursor secret
await new Promise((r) => setTimeout(r, 50));

let revision = timer.revision;
const kinds = {
  "GET /timers/{id}/status": () => call("GET", `/api/v1/timers/${timer.id}/status`),
  "GET /timers/{id}": () => call("GET", `/api/v1/timers/${timer.id}`),
  "GET /timers?limit=25": () => call("GET", "/api/v1/timers?limit=25"),
  "GET /usage": () => call("GET", "/api/v1/usage"),
  "POST /timers (Idempotency-Key)": () =>
    call("POST", "/api/v1/timers", { "idempotency-key": randomUUID() }, TIMER_BODY),
  "PATCH /timers/{id}": async () => {
    const res = await call(
      "PATCH",
      `/api/v1/timers/${timer.id}`,
      { "if-match": revision },
      JSON.stringify({ name: `N${randomUUID()}` }),
    );
    revision = res.headers.get("etag");
    return res;
  },
  "GET /t/{id} (public page, not metered or logged)": () =>
    handler(new Request(`${base}/t/${pub.id}`)),
};
const N = 50;
const trips = [];
for (const [label, fn] of Object.entries(kinds)) {
  const measure = async (concurrent) => {
    const before = counted.counter.n;
    if (concurrent && !label.startsWith("PATCH")) {
      const answers = await Promise.all(Array.from({ length: N }, fn));
      if (answers.some((a) => a.status >= 300)) throw new Error(`${label}: ${answers[0].status}`);
    } else {
      for (let i = 0; i < N; i++) {
        const a = await fn();
        if (a.status >= 300) throw new Error(`${label}: ${a.status} ${await a.text()}`);
      }
    }
    await new Promise((r) => setTimeout(r, 30)); // the request log's batch
    await handler.close(); // flushes it
    return (counted.counter.n - before) / N;
  };
  trips.push([label, await measure(false), label.startsWith("PATCH") ? null : await measure(true)]);
}
await handler.close();
await store.close();
await rawPool.end();

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (n) => Math.round(n).toLocaleString("en-US");
const med = (name, field) => median(results[name].map((x) => x[field]));
const ratio = (a, b) => median(results[a].map((x, i) => x.rps / results[b][i].rps)).toFixed(2);

console.log(
  `\n${cpus().length} cores (${cpus()[0].model}), Node ${process.version}, load average at the end ${loadavg()
    .map((x) => x.toFixed(1))
    .join(
      " ",
    )}; ${rounds} rounds of ${duration} s, ${connections} connections in total, ${accountCount} accounts; PostgreSQL synchronous_commit ${values["synchronous-commit"] ?? "on (default)"}; ${quota === null ? "no CPU budget per tminus process" : `each tminus process capped at ${quota} cores (cgroup)`}\n`,
);
console.log(
  "| scenario | req/s (median) | p99 ms | CPU s per 1k requests: tminus processes | PostgreSQL backends | load generator | cores busy |",
);
console.log("|---|---|---|---|---|---|---|");
for (const name of names) {
  console.log(
    `| ${name} | ${fmt(med(name, "rps"))} | ${med(name, "p99")} | ${med(name, "serverCpuPerK").toFixed(2)} | ${name.includes("pg") ? med(name, "dbCpuPerK").toFixed(2) : "n/a"} | ${med(name, "loaderCpuPerK").toFixed(2)} | ${med(name, "cores").toFixed(2)} |`,
  );
}
console.log("\nRatios (median of per-round ratios):\n");
for (const prefix of [
  "status, 1 key",
  `status, ${accountCount} keys`,
  `create, ${accountCount} keys`,
  "email GIF, own deadline each",
]) {
  console.log(
    `- ${prefix}: PostgreSQL two processes / one ${ratio(`${prefix}, pg x2`, `${prefix}, pg x1`)}; PostgreSQL / SQLite, one process ${ratio(`${prefix}, pg x1`, `${prefix}, sqlite x1`)}${pgU ? `; prepared statements on / off, one process ${ratio(`${prefix}, pg x1`, `${prefix}, pg x1, unnamed`)}` : ""}`,
  );
}
console.log(
  "\nRounds (req/s):",
  JSON.stringify(
    Object.fromEntries(names.map((n) => [n, results[n].map((x) => Math.round(x.rps))])),
  ),
);
console.log(
  "\nPostgreSQL round trips per request (statements sent, BEGIN/COMMIT and the request log's batched write included)\n",
);
console.log(`| request | one at a time | ${N} at once |`);
console.log("|---|---|---|");
for (const [label, seq, conc] of trips) {
  console.log(`| ${label} | ${seq.toFixed(2)} | ${conc === null ? "n/a" : conc.toFixed(2)} |`);
}

for (const child of children) child.kill("SIGTERM");
await new Promise((r) => setTimeout(r, 500));
for (const d of cgroups) {
  try {
    rmdirSync(d);
  } catch {
    // Still has a process that has not exited: the directory goes with the next boot.
  }
}
await admin.query(`DROP DATABASE ${dbName} WITH (FORCE)`);
await admin.end();
rmSync(dir, { recursive: true, force: true });
