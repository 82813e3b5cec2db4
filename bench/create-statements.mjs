// Where a create's SQLite time goes, statement by statement: `createTimer` through the Store
// API (no HTTP) on a SQLite file, 16 in flight (one group-commit batch each), as POST /timers
// calls it with an Idempotency-Key (a 1 KB stored response, an activity entry, the
// timer.created event). First `--rows` creates grow the file, then `--creates` are measured:
// process CPU per create (user and system) and each statement's wall time per create (every
// better-sqlite3 `run`/`get`/`all` timed, COMMIT included).
//
//   node bench/create-statements.mjs [--rows 100000] [--creates 16000] [--pragmas "PRAGMA cache_size = -16384"]
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { uuidv7 } from "../packages/store/dist/index.js";
import { sqliteStore } from "../packages/store/dist/sqlite.js";

const { values } = parseArgs({
  options: {
    rows: { type: "string", default: "100000" },
    creates: { type: "string", default: "16000" },
    pragmas: { type: "string", default: "" },
  },
});
const Database = createRequire(new URL("../packages/store/package.json", import.meta.url))(
  "better-sqlite3",
);
const times = new Map();
const Statement = Object.getPrototypeOf(new Database(":memory:").prepare("select 1"));
for (const method of ["run", "get", "all"]) {
  const original = Statement[method];
  Statement[method] = function (...args) {
    const start = performance.now();
    try {
      return original.apply(this, args);
    } finally {
      const key = `${method} ${this.source.replace(/\s+/g, " ").slice(0, 70)}`;
      const entry = times.get(key) ?? [0, 0];
      entry[0] += performance.now() - start;
      entry[1]++;
      times.set(key, entry);
    }
  };
}

const dir = mkdtempSync(join(tmpdir(), "tminus-create-statements-"));
const db = new Database(join(dir, "bench.db"));
if (values.pragmas) db.exec(values.pragmas);
const store = sqliteStore({ database: db });
const T0 = Date.now();
const account = await store.createAccount({ id: randomUUID(), name: "bench", plan: "p", now: T0 });
// Timer and activity ids as the server makes them (UUIDv7, so new rows land at the ends of
// their indexes); the Idempotency-Key is the client's, random.
const input = () => {
  const id = uuidv7(Date.now());
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
      data: { definition: { type: "fixed", deadline_at: "2026-12-01T00:00:00Z" }, clock: {} },
    },
    allowance: { cycle_id: "bench", limit: 1e12 },
    idempotency: { key: `k-${randomUUID()}`, fingerprint: "a".repeat(64), expires_at: T0 + 864e5 },
    respond: (timer) => ({
      status: 201,
      headers: { etag: '"r1"' },
      body: JSON.stringify({ data: timer, padding: "y".repeat(900) }),
    }),
    activity: {
      id: uuidv7(Date.now()),
      timer_id: id,
      account_id: account.id,
      environment: "production",
      action: "created",
      revision: 1,
      key_id: null,
      key_prefix: null,
      request_id: null,
      changes: {},
      created_at: T0,
    },
    events: [
      {
        id: uuidv7(Date.now()),
        type: "timer.created",
        occurred_at: T0,
        payload: (t) => ({ id: t.id }),
      },
    ],
    now: T0,
  };
};
const run = async (n) => {
  for (let i = 0; i < n; i += 16)
    await Promise.all(Array.from({ length: 16 }, () => store.createTimer(input())));
};
await run(Number(values.rows));
times.clear();
const n = Number(values.creates);
const cpu0 = process.cpuUsage();
await run(n);
const cpu = process.cpuUsage(cpu0);
console.log(
  `${values.rows} rows, then ${n} creates, 16 a batch${values.pragmas ? `, ${values.pragmas}` : ""}; load ${loadavg()[0].toFixed(1)}`,
);
console.log(
  `process CPU per create ${((cpu.user + cpu.system) / n).toFixed(1)} us (user ${(cpu.user / n).toFixed(1)}, system ${(cpu.system / n).toFixed(1)})`,
);
for (const [key, [ms, count]] of [...times].sort((a, b) => b[1][0] - a[1][0]))
  console.log(`${((1000 * ms) / n).toFixed(1).padStart(7)} us  x${(count / n).toFixed(2)}  ${key}`);
await store.close();
rmSync(dir, { recursive: true, force: true });
