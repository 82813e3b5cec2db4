// Benchmark: timer creates per second through the Store API directly (no HTTP), PostgreSQL
// against SQLite in the same run: `--concurrency` creates in flight, alternating adapters,
// median of several rounds. Also counts the database round trips of the per-request
// operations on PostgreSQL (every statement sent through the pool is one round trip).
//
//   pnpm build && node bench/store-creates.mjs [--rounds 5] [--seconds 3] [--concurrency 32]
//     [--accounts 1] [--pg postgres://postgres@127.0.0.1:5432]
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
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

const pgPool = new pg.Pool({
  connectionString: admin(dbName),
  max: 16,
  ...(values["synchronous-commit"]
    ? { options: `-c synchronous_commit=${values["synchronous-commit"]}` }
    : {}),
});
// The final DROP DATABASE ... WITH (FORCE) ends idle connections: not an error here.
pgPool.on("error", () => {});
const counted = countingPool(pgPool);
const stores = {
  sqlite: sqliteStore({ path: join(dir, "bench.db") }),
  postgres: postgresStore({ pool: counted.pool }),
};
await stores.postgres.ready();

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

/** Creates for `seconds` with `concurrency` in flight; creates per second. */
async function measure(name, keyed) {
  const store = stores[name];
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
  return done / ((performance.now() - started) / 1000);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const results = {
  "sqlite:plain": [],
  "postgres:plain": [],
  "sqlite:keyed": [],
  "postgres:keyed": [],
};
await measure("sqlite", false); // warm-up
await measure("postgres", false);
for (let r = 0; r < rounds; r++) {
  for (const keyed of [false, true]) {
    // Alternate which adapter goes first, so drift in machine load hits both alike.
    const order = r % 2 ? ["postgres", "sqlite"] : ["sqlite", "postgres"];
    for (const name of order)
      results[`${name}:${keyed ? "keyed" : "plain"}`].push(await measure(name, keyed));
  }
  process.stderr.write(`round ${r + 1}/${rounds} done\n`);
}

/** Round trips of one call, on a fresh account where it matters. */
async function roundTrips(label, call) {
  const before = counted.counter.n;
  await call();
  return [label, counted.counter.n - before];
}
const store = stores.postgres;
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
const count = () =>
  store.countRequest({
    buckets: [
      { bucket: `key:${key.id}`, limit: 1e9 },
      { bucket: `account:${account.id}:production`, limit: 1e9 },
    ],
    window_start: T0,
    usage: { account_id: account.id, environment: "production", cycle_id: "bench" },
  });
const plainInput = () => {
  const { activity: _, events: __, ...rest } = createInput(account, false);
  return rest;
};
let timer;
const trips = [
  await roundTrips("findApiKeyByHash", () => store.findApiKeyByHash(key.hash)),
  await roundTrips("countRequest, first in its window (opens the rows)", count),
  await roundTrips("countRequest", count),
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
  `\nStore createTimer, ${concurrency} in flight, ${accountCount} account(s), ${rounds} rounds of ${seconds} s (median creates/s)\n`,
);
console.log("| create | SQLite (file, WAL) | PostgreSQL (pool of 16) | PostgreSQL / SQLite |");
console.log("|---|---|---|---|");
for (const kind of ["plain", "keyed"]) {
  const s = median(results[`sqlite:${kind}`]);
  const p = median(results[`postgres:${kind}`]);
  const label =
    kind === "plain" ? "activity + event (as POST /timers)" : "same, with Idempotency-Key";
  console.log(`| ${label} | ${fmt(s)} | ${fmt(p)} | ${(p / s).toFixed(2)} |`);
}
console.log(
  "\nRounds:",
  JSON.stringify(
    Object.fromEntries(Object.entries(results).map(([k, v]) => [k, v.map(Math.round)])),
  ),
);
console.log("\nPostgreSQL round trips per call (statements sent, BEGIN/COMMIT included)\n");
console.log("| call | round trips |");
console.log("|---|---|");
for (const [label, n] of trips) console.log(`| ${label} | ${n} |`);

await stores.sqlite.close();
await stores.postgres.close();
await pgPool.end();
await server.query(`DROP DATABASE ${dbName} WITH (FORCE)`);
await server.end();
rmSync(dir, { recursive: true, force: true });
