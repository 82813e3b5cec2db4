// Experiment: what PostgreSQL spends planning the adapter's statements. The adapter sends
// unnamed statements, which the server parses and plans on every execution; a named
// (prepared) statement is planned once per connection. Measured as the CPU of the backend
// process (from /proc) per execution, for the rate-limit statement every API request runs
// (countRequest) and for a one-row lookup by key hash (findApiKeyByHash), alternating, median
// of several rounds. Run on the machine of the server (it reads /proc/<backend pid>).
//
//   pnpm build && node bench/pg-plan-cost.mjs [--rounds 5] [--runs 2000] [--pg postgres://postgres@127.0.0.1:5432]
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { POSTGRES_MIGRATIONS } from "../packages/store/dist/postgres.js";

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
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const pg = createRequire(here("../packages/cli/package.json"))("pg");
// The statement exactly as the adapter sends it (it is not exported).
const source = readFileSync(here("../packages/store/src/postgres/metering/counters.ts"), "utf8");
const COUNT = /const COUNT = `([\s\S]*?)`;/.exec(source)[1];
const LOOKUP = "SELECT * FROM api_keys WHERE hash = $1";

const dbUrl = (name) => {
  const url = new URL(values.pg);
  url.pathname = `/${name}`;
  return url.toString();
};
const name = `tminus_plan_${randomUUID().replaceAll("-", "")}`;
const admin = new pg.Client({ connectionString: dbUrl("postgres") });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
// synchronous_commit off: the WAL flush is not what this measures.
const url = new URL(dbUrl(name));
url.searchParams.set("options", "-c synchronous_commit=off");
const client = new pg.Client({ connectionString: url.toString() });
await client.connect();
for (const m of POSTGRES_MIGRATIONS) await client.query(m.sql);
const pid = (await client.query("SELECT pg_backend_pid() AS pid")).rows[0].pid;
const cpu = () => {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(f[11]) + Number(f[12])) / 100;
};
const buckets = ["key:k", "account:a:production"];
await client.query(
  "INSERT INTO rate_windows (bucket, window_start, hits) SELECT b, 0, 0 FROM unnest($1::text[]) b",
  [buckets],
);
const statements = {
  countRequest: [COUNT, [buckets, [1e15, 1e15], 0, "a", "production", "c"]],
  findApiKeyByHash: [LOOKUP, ["h"]],
};
const runs = Number(values.runs);
const results = {};
for (let r = 0; r < Number(values.rounds); r++) {
  for (const [label, [text, params]] of Object.entries(statements)) {
    for (const named of r % 2 ? [true, false] : [false, true]) {
      const before = cpu();
      for (let i = 0; i < runs; i++) {
        await client.query(
          named ? { name: label, text, values: params } : { text, values: params },
        );
      }
      const key = `${label} ${named ? "named" : "unnamed"}`;
      results[key] ??= [];
      results[key].push(((cpu() - before) * 1000) / runs);
    }
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log("\n| statement | backend CPU ms per execution (median) |\n|---|---|");
for (const [key, xs] of Object.entries(results))
  console.log(`| ${key} | ${median(xs).toFixed(3)} |`);
await client.end();
await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
await admin.end();
