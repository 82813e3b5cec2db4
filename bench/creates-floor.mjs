// Creates per second against a ceiling (issue 27: 10,000 creates/s on SQLite). In one run,
// rounds alternating:
//   store   a process of its own creating timers through the Store API on a SQLite file, 16 at
//           a time, as POST /timers with an Idempotency-Key calls `createTimer`
//           (bench/_store-creates-child.mjs): no HTTP, no validation, no request log or lines,
//           each batch a full group commit of 16. What a create through the server does is a
//           superset of this, on the same single SQLite writer, so its creates/s is a ceiling.
//   tminus  `tminus serve` of this checkout on a file of its own, POST /timers with a fresh
//           Idempotency-Key each from autocannon, 16 connections (as hot-path-ab.mjs).
// Both files grow through the run alike. Reported per round and as medians: creates/s and the
// CPU per create (the store process's own; the server's from /proc, net of idle).
//
//   npx -y pnpm@10 build && node bench/creates-floor.mjs [--rounds 5] [--seconds 3]
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { measured, median, startListening } from "./_measure.mjs";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    seconds: { type: "string", default: "3" },
  },
});
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const here = fileURLToPath(new URL("..", import.meta.url));
const cli = join(here, "packages/cli/dist/cli.js");
const dir = mkdtempSync(join(tmpdir(), "tminus-creates-floor-"));
const config = join(dir, "config.json");
writeFileSync(
  config,
  JSON.stringify({ plans: { starter: { requests_per_minute: 1e9, new_timers_per_cycle: 1e9 } } }),
);
const common = ["--db", join(dir, "tminus.db"), "--config", config];
const key = JSON.parse(
  execFileSync(
    process.execPath,
    [cli, "keys", "create", "--env", "production", "--account", "bench", ...common, "--json"],
    { encoding: "utf8" },
  ),
);
const { child: server, url } = await startListening([
  cli,
  "serve",
  "--port",
  "0",
  ...common,
  "--log-format",
  "json",
]);
const child = spawn(
  process.execPath,
  [join(here, "bench/_store-creates-child.mjs"), join(dir, "store.db"), "16"],
  { stdio: ["pipe", "pipe", "inherit"] },
);
const answers = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
const storeRound = async (s) => {
  child.stdin.write(`${s}\n`);
  const { value } = await answers.next();
  const { creates, cpuMicros: cpu } = JSON.parse(value);
  return { rate: creates / s, cpu: cpu / creates };
};

let id = 0;
const tminusRound = (s) =>
  measured(server.pid, {
    url: `${url}/api/v1/timers`,
    method: "POST",
    connections: 16,
    duration: s,
    headers: {
      authorization: `Bearer ${key.secret}`,
      "content-type": "application/json",
      "idempotency-key": `r${id++}-[<id>]`,
    },
    body: JSON.stringify({ name: "Bench", type: "fixed", deadline_at: "2030-01-01T00:00:00Z" }),
    idReplacement: true,
  });

console.log(
  `load ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}; ${rounds} rounds x ${seconds} s, 16 in flight\n`,
);
await storeRound(2);
await tminusRound(2);
const figures = { store: [], tminus: [] };
for (let r = 0; r < rounds; r++) {
  const order = r % 2 ? ["tminus", "store"] : ["store", "tminus"];
  const line = [];
  for (const name of order) {
    const m = name === "store" ? await storeRound(seconds) : await tminusRound(seconds);
    figures[name].push(m);
    line.push(`${name} ${m.rate.toFixed(0)}/s at ${m.cpu.toFixed(1)} us a create`);
  }
  console.log(`round ${r + 1}: ${line.join(", ")}; load ${loadavg()[0].toFixed(1)}`);
}
console.log(`\n== medians of ${rounds} rounds`);
for (const name of ["store", "tminus"]) {
  const f = figures[name];
  console.log(
    `${name.padEnd(7)} ${median(f.map((x) => x.rate)).toFixed(0)} creates/s, ` +
      `${median(f.map((x) => x.cpu)).toFixed(1)} us CPU a create`,
  );
}
console.log(
  `tminus / store creates/s (median of the rounds' ratios): ${median(
    figures.tminus.map((x, i) => x.rate / figures.store[i].rate),
  ).toFixed(3)}; load at the end ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}`,
);
child.stdin.end();
server.kill("SIGTERM");
await Promise.all([
  new Promise((ok) => child.once("exit", ok)),
  new Promise((ok) => server.once("exit", ok)),
]);
rmSync(dir, { recursive: true, force: true });
