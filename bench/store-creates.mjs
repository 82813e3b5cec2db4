// Benchmark: timer creates per second through the Store API directly (no HTTP), PostgreSQL
// against SQLite in the same run: `--concurrency` creates in flight, alternating adapters,
// median of several rounds. PostgreSQL runs twice, with prepared statements on (the default:
// hot statements sent by name) and off (every statement unnamed), each store over a pool of
// its own, with the CPU of that pool's backend processes per create (from /proc: run it on
// the server's machine). Also counts the database round trips of the per-request operations
// on PostgreSQL (every statement sent through the pool is one round trip).
//
//   pnpm build && node bench/store-creates.mjs [--rounds 5] [--seconds 3] [--concurrency 32]
//     [--accounts 1] [--prepared-statements both|on|off] [--pg postgres://postgres@127.0.0.1:5432]
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { postgresStore } from "../packages/store/dist/postgres.js";
import { sqliteStore } from "../packages/store/dist/sqlite.js";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    seconds: { type: "string", default: "3" },
    concurrency: { type: "string", default: "32" },
    accounts: { type: "string", default: "1" },
    "synchronous-commit": { type: "string" },
    "prepared-statements": { type: "string", default: "both" },
    pg: {
      type: "string",
      default: process.env.TMINUS_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432",
    },
  },
});
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const concurrency = Number(values.concurrency);
const accountCount = Number(values.accounts);

// pg is @tminus/store's (dev) dependency, not the workspace root's.
const pg = createRequire(new URL("../packages/store/package.json", import.meta.url))("pg");

const admin = (db) => {
  const url = new URL(values.pg);
  url.pathname = `/${db}`;
  return url.toString();
};
const dbName = `tminus_bench_${randomUUID().replaceAll("-", "")}`;
const server = new pg.Client({ connectionString: admin("postgres") });
await server.connect();
await server.query(`CREATE DATABASE ${dbName}`);
const dir = mkdtempSync(join(tmpdir(), "tminus-bench-"));

/** A pool whose statements are counted: each is one round trip to the server. */
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

const modes = {
  both: ["postgres", "postgres-unnamed"],
  on: ["postgres"],
  off: ["postgres-unnamed"],
}[values["prepared-statements"]];
if (!modes) throw new Error("--prepared-statements is both, on or off");

/** A pool of 16 whose connections stay open, named so its backends can be found. */
function benchPool(application_name) {
  const pool = new pg.Pool({
    connectionString: admin(dbName),
    max: 16,
    idleTimeoutMillis: 0,
    application_name,
    ...(values["synchronous-commit"]
      ? { options: `-c synchronous_commit=${values["synchronous-commit"]}` }
      : {}),
  });
  // The final DROP DATABASE ... WITH (FORCE) ends idle connections: not an error here.
  pool.on("error", () => {});
  return pool;
}
const pools = {};
const stores = { sqlite: sqliteStore({ path: join(dir, "bench.db") }) };
let counted;
for (const name of modes) {
  pools[name] = benchPool(`bench-${name}`);
  if (name === "postgres") counted = countingPool(pools[name]);
  const pool = name === "postgres" ? counted.pool : pools[name];
  stores[name] = postgresStore({ pool, preparedStatements: name === "postgres" });
  await stores[name].ready();
}

/** User + system CPU seconds of the backends of one store's pool, by pid. */
async function backendCpu(name) {
  const { rows } = await server.query(
    "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = $2",
    [dbName, `bench-${name}`],
  );
  const byPid = new Map();
  for (const { pid } of rows) {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
      byPid.set(pid, (Number(f[11]) + Number(f[12])) / 100);
    } catch {} // ended meanwhile
  }
  return byPid;
}

const T0 = Date.now();
const actor = { key_id: null, key_prefix: null, request_id: null };

/** What POST /timers passes: an activity entry and the `timer.created` event, maybe a key. */
function createInput(account, keyed) {
  const id = randomUUID();
  return {
    timer: {
      id,
      account_id: account.id,
      environment: "production",
      name: "Launch",
      type: "fixed",
      status: "draft",
      created_at: T0,
      updated_at: T0,
      published_at: null,
      data: {
        definition: { type: "fixed", deadline_at: "2026-12-01T00:00:00Z", look: {} },
        clock: {},
      },
    },
    allowance: { cycle_id: "bench", limit: 1e12 },
    ...(keyed
      ? { idempotency: { key: randomUUID(), fingerprint: "fp", expires_at: T0 + 86_400_000 } }
      : {}),
    respond: (timer) => ({
      status: 201,
      headers: { etag: '"r1"' },
      body: JSON.stringify({ data: timer }),
    }),
    activity: {
      id: randomUUID(),
      timer_id: id,
      account_id: account.id,
      environment: "production",
      action: "created",
      revision: 1,
      ...actor,
      changes: {},
      created_at: T0,
    },
    events: [
      { id: randomUUID(), type: "timer.created", occurred_at: T0, payload: (t) => ({ id: t.id }) },
    ],
    now: T0,
  };
}

const accounts = {};
for (const [name, store] of Object.entries(stores)) {
  accounts[name] = [];
  for (let i = 0; i < accountCount; i++) {
    accounts[name].push(
      await store.createAccount({
        id: randomUUID(),
        name: `bench-${randomUUID()}`,
        plan: "p",
        now: T0,
      }),
    );
  }
}

/**
 * Creates for `seconds` with `concurrency` in flight: creates per second and, on PostgreSQL,
 * backend CPU ms per create (a backend that opened meanwhile counts from zero).
 */
async function measure(name, keyed) {
  const store = stores[name];
  const before = name === "sqlite" ? null : await backendCpu(name);
  const until = performance.now() + seconds * 1000;
  let done = 0;
  let next = 0;
  const worker = async () => {
    while (performance.now() < until) {
      const account = accounts[name][next++ % accountCount];
      const outcome = await store.createTimer(createInput(account, keyed));
      if (outcome.kind !== "created") throw new Error(`unexpected ${outcome.kind}`);
      done++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const rate = done / ((performance.now() - started) / 1000);
  if (!before) return { rate, cpu: null };
  let used = 0;
  for (const [pid, s] of await backendCpu(name)) used += s - (before.get(pid) ?? 0);
  return { rate, cpu: (used * 1000) / done };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const names = ["sqlite", ...modes];
const results = {};
const cpuPerCreate = {};
for (const name of names) {
  for (const kind of ["plain", "keyed"]) {
    results[`${name}:${kind}`] = [];
    cpuPerCreate[`${name}:${kind}`] = [];
  }
}
for (const name of names) await measure(name, false); // warm-up
const load = [loadavg()[0]];
for (let r = 0; r < rounds; r++) {
  for (const keyed of [false, true]) {
    // Rotate which adapter goes first, so drift in machine load hits all alike.
    const order = names.map((_, i) => names[(i + r) % names.length]);
    for (const name of order) {
      const { rate, cpu } = await measure(name, keyed);
      results[`${name}:${keyed ? "keyed" : "plain"}`].push(rate);
      cpuPerCreate[`${name}:${keyed ? "keyed" : "plain"}`].push(cpu);
    }
  }
  load.push(loadavg()[0]);
  process.stderr.write(`round ${r + 1}/${rounds} done (load ${loadavg()[0].toFixed(1)})\n`);
}

/** Round trips of one call, on a fresh account where it matters. */
async function roundTrips(label, call) {
  const before = counted.counter.n;
  await call();
  return [label, counted.counter.n - before];
}
// The round trips are the same both ways; counted on the default store when it ran.
counted ??= countingPool(pools[modes[0]]);
const store = postgresStore({ pool: counted.pool, preparedStatements: modes[0] === "postgres" });
const account = await store.createAccount({
  id: randomUUID(),
  name: `rt-${randomUUID()}`,
  plan: "p",
  now: T0,
});
const key = await store.createApiKey({
  id: randomUUID(),
  account_id: account.id,
  environment: "production",
  prefix: "svc_live_x",
  hash: randomUUID(),
  scopes: ["*"],
  max_active_keys: 5,
  now: T0,
});
const reserve = () =>
  store.reserveRequests({
    buckets: [
      { bucket: `key:${key.id}`, limit: 1e9, want: 8 },
      { bucket: `account:${account.id}:production`, limit: 1e9, want: 8 },
    ],
    window_start: T0,
  });
const plainInput = () => {
  const { activity: _, events: __, ...rest } = createInput(account, false);
  return rest;
};
let timer;
const trips = [
  await roundTrips("findApiKeyByHash", () => store.findApiKeyByHash(key.hash)),
  await roundTrips("reserveRequests, first in its window (opens the rows)", reserve),
  await roundTrips("reserveRequests", reserve),
  await roundTrips("createTimer, no key, no events", async () => {
    timer = (await store.createTimer(plainInput())).timer;
  }),
  await roundTrips("createTimer as POST /timers (activity + event), no destinations", () =>
    store.createTimer(createInput(account, false)),
  ),
  await roundTrips("createTimer as POST /timers with Idempotency-Key", () =>
    store.createTimer(createInput(account, true)),
  ),
  await roundTrips("getTimer", () => store.getTimer(account.id, "production", timer.id)),
  await roundTrips("changeTimer", () =>
    store.changeTimer({
      account_id: account.id,
      environment: "production",
      id: timer.id,
      expected_revision: 1,
      actor,
      activity_id: randomUUID(),
      now: T0,
      change: () => ({ action: "updated", changes: {}, name: "x" }),
    }),
  ),
  await roundTrips("findTimerById (public routes)", () => store.findTimerById(timer.id)),
  await roundTrips("recordFirstView", () =>
    store.recordFirstView({ timer_id: timer.id, viewer: "v", now: T0 }),
  ),
  await roundTrips("logRequests (a batch of 10)", () =>
    store.logRequests(
      Array.from({ length: 10 }, () => ({
        id: randomUUID(),
        account_id: account.id,
        environment: "production",
        key_id: key.id,
        key_prefix: key.prefix,
        request_id: randomUUID(),
        method: "GET",
        route: "/api/v1/usage",
        status: 200,
        error_code: null,
        duration_ms: 1,
        created_at: T0,
      })),
    ),
  ),
  await roundTrips("claimDueDeliveries (nothing due)", () =>
    store.claimDueDeliveries({ now: T0, lease_ms: 1000, limit: 10, worker_id: "w" }),
  ),
];

const fmt = (n) => Math.round(n).toLocaleString("en-US");
console.log(
  `\nStore createTimer, ${concurrency} in flight, ${accountCount} account(s), ${rounds} rounds of ${seconds} s (median creates/s; load average ${load.map((l) => l.toFixed(1)).join(", ")})\n`,
);
const title = {
  postgres: "PostgreSQL, prepared (default)",
  "postgres-unnamed": "PostgreSQL, unnamed",
};
console.log(
  `| create | SQLite (file, WAL) | ${modes.map((m) => `${title[m]} (pool of 16) | backend CPU ms per create`).join(" | ")} | PostgreSQL / SQLite |${modes.length === 2 ? " prepared / unnamed creates/s (median of rounds) |" : ""}`,
);
console.log(
  `|---|---|${modes.map(() => "---|---|").join("")}---|${modes.length === 2 ? "---|" : ""}`,
);
for (const kind of ["plain", "keyed"]) {
  const s = median(results[`sqlite:${kind}`]);
  const cells = modes.map(
    (m) =>
      `${fmt(median(results[`${m}:${kind}`]))} | ${median(cpuPerCreate[`${m}:${kind}`]).toFixed(3)}`,
  );
  const p = median(results[`${modes[0]}:${kind}`]);
  const ratio =
    modes.length === 2
      ? ` ${median(results[`postgres:${kind}`].map((x, i) => x / results[`postgres-unnamed:${kind}`][i])).toFixed(2)} |`
      : "";
  const label =
    kind === "plain" ? "activity + event (as POST /timers)" : "same, with Idempotency-Key";
  console.log(`| ${label} | ${fmt(s)} | ${cells.join(" | ")} | ${(p / s).toFixed(2)} |${ratio}`);
}
console.log(
  "\nRounds:",
  JSON.stringify(
    Object.fromEntries(Object.entries(results).map(([k, v]) => [k, v.map(Math.round)])),
  ),
  "\nBackend CPU ms per create:",
  JSON.stringify(
    Object.fromEntries(
      Object.entries(cpuPerCreate)
        .filter(([k]) => !k.startsWith("sqlite"))
        .map(([k, v]) => [k, v.map((x) => +x.toFixed(3))]),
    ),
  ),
);
console.log("\nPostgreSQL round trips per call (statements sent, BEGIN/COMMIT included)\n");
console.log("| call | round trips |");
console.log("|---|---|");
for (const [label, n] of trips) console.log(`| ${label} | ${n} |`);

await store.close();
for (const s of Object.values(stores)) await s.close();
for (const p of Object.values(pools)) await p.end();
await server.query(`DROP DATABASE ${dbName} WITH (FORCE)`);
await server.end();
rmSync(dir, { recursive: true, force: true });
