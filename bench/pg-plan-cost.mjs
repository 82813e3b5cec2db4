// Experiment: what PostgreSQL spends planning the adapter's statements, through the store
// itself. Two PostgreSQL stores on one database, each over a pool of ONE connection: one with
// `preparedStatements` on (the default: the hot statements are sent by name, parsed and
// planned once per connection), one with it off (every statement unnamed, planned on every
// execution, as behind PgBouncer in transaction mode without prepared statement support).
// Each store call is run `--runs` times on one store, then on the other (order alternating per
// round); the figure is the CPU of that store's backend process (from /proc) per call, median
// of the rounds. Run on the machine of the server (it reads /proc/<backend pid>).
//
//   pnpm build && node bench/pg-plan-cost.mjs [--rounds 5] [--runs 2000] [--pg postgres://postgres@127.0.0.1:5432]
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { postgresStore } from "../packages/store/dist/postgres.js";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    runs: { type: "string", default: "2000" },
    pg: {
      type: "string",
      default: process.env.TMINUS_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432",
    },
  },
});
const rounds = Number(values.rounds);
const runs = Number(values.runs);
// pg is @tminus/store's (dev) dependency, not the workspace root's.
const pg = createRequire(new URL("../packages/store/package.json", import.meta.url))("pg");

const dbUrl = (name) => {
  const url = new URL(values.pg);
  url.pathname = `/${name}`;
  return url.toString();
};
const name = `tminus_plan_${randomUUID().replaceAll("-", "")}`;
const admin = new pg.Client({ connectionString: dbUrl("postgres") });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);

/** A store over one connection that never closes, and that connection's backend pid. */
async function oneConnectionStore(preparedStatements) {
  const pool = new pg.Pool({
    connectionString: dbUrl(name),
    max: 1,
    idleTimeoutMillis: 0,
    // The WAL flush is not what this measures.
    options: "-c synchronous_commit=off",
  });
  pool.on("error", () => {});
  const store = postgresStore({ pool, preparedStatements });
  await store.ready();
  const pid = (await pool.query("SELECT pg_backend_pid() AS pid")).rows[0].pid;
  return { store, pool, pid };
}
const sides = {
  prepared: await oneConnectionStore(true),
  unnamed: await oneConnectionStore(false),
};

/** User + system CPU seconds of a backend so far. */
const cpu = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(f[11]) + Number(f[12])) / 100;
};

const T0 = Date.now();
const actor = { key_id: null, key_prefix: null, request_id: null };

/** Each side's account, key and timer, so the two stores never touch each other's rows. */
async function fixtures({ store }) {
  const account = await store.createAccount({
    id: randomUUID(),
    name: `plan-${randomUUID()}`,
    plan: "p",
    now: T0,
  });
  const key = await store.createApiKey({
    id: randomUUID(),
    account_id: account.id,
    environment: "production",
    prefix: `svc_live_${randomUUID().slice(0, 8)}`,
    hash: randomUUID(),
    scopes: ["*"],
    max_active_keys: 5,
    now: T0,
  });
  const created = await store.createTimer(createInput(account, false));
  return { account, key, timer: created.timer };
}

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
      data: { definition: { type: "fixed", deadline_at: "2026-12-01T00:00:00Z" } },
    },
    allowance: { cycle_id: "bench", limit: 1e12 },
    ...(keyed
      ? { idempotency: { key: randomUUID(), fingerprint: "fp", expires_at: T0 + 86_400_000 } }
      : {}),
    respond: (timer) => ({ status: 201, headers: {}, body: JSON.stringify({ data: timer }) }),
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

const calls = {
  "findApiKeyByHash (every API request whose key is not cached)": ({ store }, f) =>
    store.findApiKeyByHash(f.key.hash),
  "reserveRequests (rate limit: a key and its account)": ({ store }, f) =>
    store.reserveRequests({
      window_start: T0,
      buckets: [
        { bucket: `key:${f.key.id}`, limit: 1e15, want: 1 },
        { bucket: `account:${f.account.id}:production`, limit: 1e15, want: 1 },
      ],
    }),
  "getTimer (timer not cached)": ({ store }, f) =>
    store.getTimer(f.account.id, "production", f.timer.id),
  "createTimer as POST /timers (activity + event)": ({ store }, f) =>
    store.createTimer(createInput(f.account, false)),
  "createTimer with Idempotency-Key (BEGIN, claim, create, COMMIT)": ({ store }, f) =>
    store.createTimer(createInput(f.account, true)),
  "logRequests (a batch of 10 rows)": ({ store }, f) =>
    store.logRequests(
      Array.from({ length: 10 }, () => ({
        id: randomUUID(),
        account_id: f.account.id,
        environment: "production",
        key_id: f.key.id,
        key_prefix: f.key.prefix,
        request_id: randomUUID(),
        method: "GET",
        route: "/api/v1/usage",
        status: 200,
        error_code: null,
        duration_ms: 1,
        created_at: T0,
      })),
    ),
  "addUsage (one counter)": ({ store }, f) =>
    store.addUsage([
      {
        account_id: f.account.id,
        environment: "production",
        cycle_id: "bench",
        metric: "api_requests",
        amount: 1,
      },
    ]),
};

const fixturesOf = {
  prepared: await fixtures(sides.prepared),
  unnamed: await fixtures(sides.unnamed),
};
// Warm both connections (catalog caches, the named statements' Parse) before measuring.
for (const side of Object.keys(sides)) {
  for (const call of Object.values(calls)) {
    for (let i = 0; i < 20; i++) await call(sides[side], fixturesOf[side]);
  }
}

const results = {};
const load = [loadavg()[0]];
for (let r = 0; r < rounds; r++) {
  // Statistics as autovacuum keeps them in a running database: without them the growing
  // tables' plans degrade (getTimer went from 0.15 to 1 ms of backend CPU over the rounds, both
  // ways alike), which is not what this measures.
  await sides.prepared.pool.query("ANALYZE");
  for (const [label, call] of Object.entries(calls)) {
    for (const side of r % 2 ? ["unnamed", "prepared"] : ["prepared", "unnamed"]) {
      const { pid } = sides[side];
      const before = cpu(pid);
      for (let i = 0; i < runs; i++) await call(sides[side], fixturesOf[side]);
      results[label] ??= { prepared: [], unnamed: [] };
      results[label][side].push(((cpu(pid) - before) * 1000) / runs);
    }
  }
  load.push(loadavg()[0]);
  process.stderr.write(`round ${r + 1}/${rounds} done (load ${loadavg()[0].toFixed(1)})\n`);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
console.log(
  `\nBackend CPU ms per store call, median of ${rounds} rounds of ${runs} calls (load average ${load.map((l) => l.toFixed(1)).join(", ")})\n`,
);
console.log("| store call | prepared statements on | off (all unnamed) | on / off |");
console.log("|---|---|---|---|");
for (const [label, { prepared, unnamed }] of Object.entries(results)) {
  const ratios = prepared.map((p, i) => (unnamed[i] > 0 ? p / unnamed[i] : Number.NaN));
  console.log(
    `| ${label} | ${median(prepared).toFixed(3)} | ${median(unnamed).toFixed(3)} | ${median(ratios).toFixed(2)} |`,
  );
}
console.log(
  "\nRounds:",
  JSON.stringify(
    Object.fromEntries(
      Object.entries(results).map(([k, v]) => [
        k,
        { on: v.prepared.map((x) => +x.toFixed(3)), off: v.unnamed.map((x) => +x.toFixed(3)) },
      ]),
    ),
  ),
);

for (const side of Object.values(sides)) {
  await side.store.close();
  await side.pool.end();
}
await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
await admin.end();
