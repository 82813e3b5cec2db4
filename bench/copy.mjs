// The downtime of moving from SQLite to PostgreSQL: a SQLite database filled through the API
// of a real `tminus serve` (N timers with idempotency keys, a quarter updated, the request log
// and usage that come with them), then `tminus copy` to a fresh database on the PostgreSQL
// server at TMINUS_TEST_PG_URL, timed, and back into a new SQLite file. Baseline, same run:
// `tminus backup` of the same file (a page copy with no conversion), and the rows per second.
//
//   npx -y pnpm@10 build && node bench/copy.mjs --timers 100000 [--lanes 16] [--batch-size 1000]
import { execFileSync, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

// pg is the CLI's dependency; resolve it from there.
const pg = createRequire(new URL("../packages/cli/package.json", import.meta.url))("pg");

const { values } = parseArgs({
  options: {
    timers: { type: "string", default: "100000" },
    lanes: { type: "string", default: "16" },
    "batch-size": { type: "string", default: "1000" },
    keep: { type: "boolean", default: false },
    // A database an earlier run filled and kept (--keep prints where): skips the fill.
    source: { type: "string" },
  },
});
const TIMERS = Number(values.timers);
const cli = fileURLToPath(new URL("../packages/cli/dist/cli.js", import.meta.url));
const PG_URL = process.env.TMINUS_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432";
const dir = mkdtempSync(join(tmpdir(), "tminus-copy-bench-"));
const config = join(dir, "config.json");
writeFileSync(
  config,
  JSON.stringify({
    plans: { starter: { requests_per_minute: 10_000_000, new_timers_per_cycle: 10_000_000 } },
  }),
);
const source = values.source ?? join(dir, "source.db");

function tminus(args) {
  return execFileSync(process.execPath, [cli, ...args], { encoding: "utf8", maxBuffer: 1 << 26 });
}

function timed(args) {
  const start = process.hrtime.bigint();
  const out = tminus(args);
  return { seconds: Number(process.hrtime.bigint() - start) / 1e9, out };
}

async function serve() {
  const child = spawn(
    process.execPath,
    [cli, "serve", "--port", "0", "--no-worker", "--db", source, "--config", config],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const url = await new Promise((resolve, reject) => {
    let out = "";
    let listening = false;
    child.stdout.on("data", (c) => {
      if (listening) return; // request lines: read and dropped, never kept
      out += c;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        listening = true;
        resolve(m[1]);
      }
    });
    child.once("exit", (code) => reject(new Error(`serve exited ${code}`)));
  });
  return { child, url };
}

async function fill() {
  const key = JSON.parse(
    tminus([
      "keys",
      "create",
      "--env",
      "production",
      "--account",
      "bench",
      "--json",
      "--db",
      source,
      "--config",
      config,
    ]),
  );
  const { child, url } = await serve();
  const bodies = [
    { type: "fixed", deadline_at: "2031-01-01T00:00:00Z" },
    { type: "duration", duration_seconds: 7200 },
    {
      type: "recurring",
      timezone: "Europe/Paris",
      recurrence: { rrule: "FREQ=WEEKLY;BYDAY=MO", dtstart: "2026-01-05T09:00" },
    },
  ];
  let next = 0;
  const started = Date.now();
  const lane = async () => {
    while (next < TIMERS) {
      const i = next++;
      const headers = { authorization: `Bearer ${key.secret}`, "content-type": "application/json" };
      const res = await fetch(`${url}/api/v1/timers`, {
        method: "POST",
        headers: { ...headers, "idempotency-key": `bench-${i}` },
        body: JSON.stringify({
          name: `Timer ${i}`,
          ...bodies[i % 3],
          metadata: { campaign: `c${i % 97}` },
        }),
      });
      const body = await res.json();
      if (res.status !== 201) throw new Error(JSON.stringify(body));
      if (i % 4 === 0) {
        const up = await fetch(`${url}/api/v1/timers/${body.data.id}`, {
          method: "PATCH",
          headers: { ...headers, "if-match": String(body.data.revision) },
          body: JSON.stringify({ name: `Renamed ${i}` }),
        });
        await up.arrayBuffer();
      }
      if (i % 10_000 === 0)
        process.stderr.write(
          `  filled ${i} timers (${Math.round((Date.now() - started) / 1000)} s)\n`,
        );
    }
  };
  await Promise.all(Array.from({ length: Number(values.lanes) }, lane));
  child.kill("SIGTERM");
  await new Promise((r) => child.once("exit", r));
}

const name = `tminus_copy_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
const admin = new pg.Client({ connectionString: `${PG_URL}/postgres` });
await admin.connect();
try {
  process.stderr.write(`filling ${TIMERS} timers through the API...\n`);
  if (!values.source) await fill();
  await admin.query(`CREATE DATABASE ${name}`);
  const target = `${PG_URL}/${name}`;
  const batch = ["--batch-size", values["batch-size"]];
  const there = timed(["copy", "--from", source, "--to", target, "--json", ...batch]);
  const report = JSON.parse(there.out);
  const rows = report.tables.reduce((n, t) => n + t.source.rows, 0);
  const back = timed(["copy", "--from", target, "--to", join(dir, "back.db"), "--json", ...batch]);
  const backup = timed(["backup", "--db", source, "--out", join(dir, "backup.db"), "--json"]);
  const size = statSync(source).size;
  const by = Object.fromEntries(report.tables.map((t) => [t.table, t.source.rows]));
  console.log(
    JSON.stringify(
      {
        timers: by.timers,
        rows,
        sqlite_mb: Math.round(size / 1e5) / 10,
        tables: {
          timer_activity: by.timer_activity,
          idempotency_keys: by.idempotency_keys,
          request_log: by.request_log,
        },
        copy_sqlite_to_postgres_s: Math.round(there.seconds * 10) / 10,
        of_which_copy_s: report.copyMs / 1000,
        of_which_verify_s: report.verifyMs / 1000,
        copy_postgres_to_sqlite_s: Math.round(back.seconds * 10) / 10,
        rows_per_s_to_postgres: Math.round(rows / there.seconds),
        baseline_backup_sqlite_s: Math.round(backup.seconds * 10) / 10,
        verified: report.ok && JSON.parse(back.out).ok,
      },
      null,
      2,
    ),
  );
} finally {
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
  await admin.end();
  if (values.keep) process.stderr.write(`kept ${source}\n`);
  else rmSync(dir, { recursive: true, force: true });
}
