// What metrics and request lines cost a request: the Fetch handler in this process, 20,000
// sequential GET /api/v1/timers/{id}/status per round, without observability, with
// `createMetrics()`, and with metrics and a pino logger (JSON, asynchronous, to /dev/null).
// CPU time (user + system) per request, median of the rounds: CPU rather than wall time,
// because the machine is shared. Build first: `pnpm build`.
//
//   node bench/observability.mjs [--rounds 7] [--requests 20000]
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "7" },
    requests: { type: "string", default: "20000" },
  },
});
const rounds = Number(values.rounds);
const N = Number(values.requests);
// Resolved from the CLI package, which depends on all three.
const load = createRequire(new URL("../packages/cli/package.json", import.meta.url));
const { createAdmin, createHandler, createMetrics } = load("@tminus/http");
const { sqliteStore } = load("@tminus/store");
const { pino } = load("pino");

const dir = mkdtempSync(join(tmpdir(), "tminus-obs-bench-"));
const store = sqliteStore({ path: join(dir, "bench.db") });
const config = { plans: { starter: { requests_per_minute: 1e9, new_timers_per_cycle: 1e9 } } };
const key = await createAdmin({ store, config }).issueKey({
  account: "bench",
  environment: "production",
});
const auth = { authorization: `Bearer ${key.secret}` };
const handlers = {
  plain: createHandler({ store, config, housekeeping: false }),
  metrics: createHandler({ store, config, housekeeping: false, metrics: createMetrics() }),
  "metrics + request lines": createHandler({
    store,
    config,
    housekeeping: false,
    metrics: createMetrics(),
    logger: pino({}, pino.destination({ dest: "/dev/null", sync: false })),
  }),
};
const created = await handlers.plain(
  new Request("http://bench/api/v1/timers", {
    method: "POST",
    headers: { ...auth, "content-type": "application/json", "idempotency-key": "bench" },
    body: JSON.stringify({ name: "Launch", type: "fixed", deadline_at: "2031-01-01T00:00:00Z" }),
  }),
);
const url = `http://bench/api/v1/timers/${(await created.json()).data.id}/status`;

const cpu = {};
for (let round = 0; round < rounds; round++) {
  for (const [name, handler] of Object.entries(handlers)) {
    for (let i = 0; i < 2000; i++) await handler(new Request(url, { headers: auth }));
    const start = process.cpuUsage();
    for (let i = 0; i < N; i++) {
      const res = await handler(new Request(url, { headers: auth }));
      if (res.status !== 200) throw new Error(`status ${res.status}`);
    }
    const used = process.cpuUsage(start);
    cpu[name] ??= [];
    cpu[name].push((used.user + used.system) / N);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [name, xs] of Object.entries(cpu)) {
  console.log(
    `${name}: ${median(xs).toFixed(1)} us of CPU per request (rounds: ${xs.map((x) => x.toFixed(1)).join(" ")})`,
  );
}
await Promise.all(Object.values(handlers).map((h) => h.close()));
await store.close();
rmSync(dir, { recursive: true, force: true });
