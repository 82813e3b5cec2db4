// Child of creates-floor.mjs: creates timers through the Store API on a SQLite file as fast
// as it can, `inFlight` at a time (each batch one group commit, as 16 connections give the
// server), the way POST /timers calls `createTimer` with an Idempotency-Key (a stored 201 of
// about 1 KB, an activity entry, the timer.created event, the allowance counter). No HTTP, no
// request log, no request lines: a strict part of what a create through `tminus serve` does.
// Reads "<seconds>\n" on stdin per round and answers one JSON line: creates and its CPU.
import { randomUUID } from "node:crypto";
import { createInterface } from "node:readline";
import { uuidv7 } from "../packages/store/dist/index.js";
import { sqliteStore } from "../packages/store/dist/sqlite.js";

const [path, inFlightArg] = process.argv.slice(2);
const inFlight = Number(inFlightArg ?? 16);
const store = sqliteStore({ path });
const T0 = Date.now();
const account = await store.createAccount({ id: randomUUID(), name: "bench", plan: "p", now: T0 });

// Ids as the server makes them (UUIDv7: the tables' keys grow at their ends); the
// Idempotency-Key is the client's, random.
const input = () => {
  const now = Date.now();
  const id = uuidv7(now);
  return {
    timer: {
      id,
      account_id: account.id,
      environment: "production",
      name: "Bench",
      type: "fixed",
      status: "draft",
      created_at: now,
      updated_at: now,
      published_at: null,
      data: { definition: { type: "fixed", deadline_at: "2030-01-01T00:00:00Z" }, clock: {} },
    },
    allowance: { cycle_id: "bench", limit: 1e12 },
    idempotency: { key: `k-${randomUUID()}`, fingerprint: "a".repeat(64), expires_at: now + 864e5 },
    respond: (timer) => ({
      status: 201,
      headers: { etag: '"r1"' },
      body: JSON.stringify({ data: timer, padding: "y".repeat(600) }),
    }),
    activity: {
      id: uuidv7(now),
      timer_id: id,
      account_id: account.id,
      environment: "production",
      action: "created",
      revision: 1,
      key_id: null,
      key_prefix: null,
      request_id: null,
      changes: {},
      created_at: now,
    },
    events: [
      { id: uuidv7(now), type: "timer.created", occurred_at: now, payload: (t) => ({ id: t.id }) },
    ],
    now,
  };
};

/** Creates for `seconds`, `inFlight` at a time; the creates made and the CPU they took. */
async function round(seconds) {
  const cpu0 = process.cpuUsage();
  const until = performance.now() + seconds * 1000;
  let creates = 0;
  while (performance.now() < until) {
    await Promise.all(Array.from({ length: inFlight }, () => store.createTimer(input())));
    creates += inFlight;
  }
  const cpu = process.cpuUsage(cpu0);
  return { creates, cpuMicros: cpu.user + cpu.system };
}

for await (const line of createInterface({ input: process.stdin })) {
  const result = await round(Number(line));
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
await store.close();
