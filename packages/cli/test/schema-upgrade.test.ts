// Upgrading by version: a database at the previous schema version (every migration but the
// last applied) holding realistic rows, made by the API of a real `tminus serve`, is upgraded
// by `tminus migrate`; every row survives (counts and checksums per table) and the API
// answers over it with the same keys. SQLite and the real PostgreSQL server.
//
// The rows are inserted with the columns the old schema has: when a new migration adds a
// column, the old database simply lacks it, as a real one would.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  COPY_TABLES,
  postgresCopyEndpoint,
  sqliteCopyEndpoint,
  summarizeTables,
  type TableSummary,
} from "../../store/src/copy";
import { migratePostgres, POSTGRES_MIGRATIONS } from "../../store/src/postgres";
import { MIGRATIONS } from "../../store/src/sqlite";
import { openDatabase } from "../../store/src/sqlite/database";
import { migrate as migrateSqlite } from "../../store/src/sqlite/migrate";
import { type Filled, fillThroughApi, targetAt } from "./_fill";
import {
  api,
  createTestDatabase,
  describeWithPostgres,
  listAll,
  serve,
  stop,
  stopAll,
  tminus,
} from "./_processes";

const describePg = await describeWithPostgres();

describePg("tminus migrate from the previous schema version, with data", () => {
  let dir = "";
  let config = "";
  let donor = "";
  let filled: Filled;
  let expected: TableSummary[];
  let timerIds: string[];
  let database: Awaited<ReturnType<typeof createTestDatabase>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "tminus-upgrade-"));
    config = join(dir, "config.json");
    writeFileSync(
      config,
      JSON.stringify({
        plans: { starter: { requests_per_minute: 1_000_000, new_timers_per_cycle: 1_000_000 } },
        sandbox: { requests_per_minute: 1_000_000, new_timers_per_cycle: 1_000_000 },
        webhooks: { allow_http: true, allow_private_destinations: true },
      }),
    );
    // The rows come from the API of a real server, at the current schema...
    donor = join(dir, "donor.db");
    const a = await serve(["--db", donor, "--config", config, "--no-worker"]);
    filled = await fillThroughApi(a.url, donor, config, "http://127.0.0.1:9/hook", 300);
    timerIds = (await listAll(a.url, filled.acme, "/timers")).map((t) => t.id).sort();
    await stop(a.child);
    const side = sqliteCopyEndpoint({ path: donor, mustExist: true });
    expected = await summarizeTables(side);
    await side.close();
    database = await createTestDatabase();
  }, 120_000);
  afterAll(async () => {
    await stopAll();
    await database?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** The API over the upgraded database answers as the donor did, with the same keys. */
  async function expectServed(db: string) {
    const b = await serve(["--db", db, "--config", config, "--no-worker", "--no-migrate"]);
    const ids = (await listAll(b.url, filled.acme, "/timers")).map((t) => t.id).sort();
    expect(ids).toEqual(timerIds);
    for (const id of ids.slice(0, 10)) {
      expect((await api(b.url, filled.acme, "GET", `/timers/${id}/status`)).status).toBe(200);
    }
    const browser = filled.evergreen.browsers[0]!;
    const page = await fetch(`${b.url}/t/${filled.evergreen.id}`, {
      headers: { cookie: browser.cookie },
    });
    expect(targetAt(await page.text())).toBe(browser.targetAt);
    expect((await api(b.url, filled.sandbox, "GET", "/usage")).status).toBe(200);
    await stop(b.child);
  }

  it("SQLite: version N-1 with rows, `tminus migrate`, every row kept and served", async () => {
    const path = join(dir, "old.db");
    const db = openDatabase(path);
    db.exec("PRAGMA journal_mode = WAL");
    migrateSqlite(db, MIGRATIONS.slice(0, -1));
    db.exec(`ATTACH DATABASE '${donor}' AS donor`);
    for (const table of COPY_TABLES) {
      const old = (
        db.prepare(`PRAGMA main.table_info(${table.name})`).all() as { name: string }[]
      ).map((c) => c.name);
      if (old.length === 0) continue;
      const columns = old.join(", ");
      db.exec(
        `INSERT INTO main.${table.name} (${columns}) SELECT ${columns} FROM donor.${table.name}`,
      );
    }
    db.exec("DETACH DATABASE donor");
    db.close();

    const before = await tminus(["serve", "--port", "0", "--no-migrate", "--db", path]);
    expect(before.stderr).toMatch(
      /schema is at version \d+, this code needs \d+; run `tminus migrate`/,
    );
    const migrated = await tminus(["migrate", "--db", path]);
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stdout).toContain(`schema at version ${MIGRATIONS.at(-1)!.version}`);
    const side = sqliteCopyEndpoint({ path, mustExist: true });
    expect(await summarizeTables(side)).toEqual(expected);
    await side.close();
    await expectServed(path);
  }, 120_000);

  it("PostgreSQL: version N-1 with rows, `tminus migrate`, every row kept and served", async () => {
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
    pool.on("error", () => {});
    await migratePostgres(pool, POSTGRES_MIGRATIONS.slice(0, -1));
    const from = sqliteCopyEndpoint({ path: donor, mustExist: true });
    const to = postgresCopyEndpoint({ pool, label: "old" });
    // The copy's writer, used as a plain inserter (its resume record dropped after).
    await to.startProgress("donor");
    for (const table of COPY_TABLES) {
      const rows = await from.read(table, null, 1_000_000);
      if (rows.length === 0) continue;
      // Only the columns the old schema has, as in the SQLite case above.
      const present = new Set(
        (
          await pool.query<{ column_name: string }>(
            "SELECT column_name FROM information_schema.columns WHERE table_name = $1",
            [table.name],
          )
        ).rows.map((r) => r.column_name),
      );
      const keep = table.columns.flatMap((c, i) => (present.has(c.name) ? [i] : []));
      if (keep.length === 0) continue;
      await to.write(
        { ...table, columns: keep.map((i) => table.columns[i]!) },
        rows.map((row) => keep.map((i) => row[i]!)),
        { table: table.name, lastKey: null, rows: 0 },
      );
    }
    await to.finishProgress();
    await from.close();
    await pool.end();

    const migrated = await tminus(["migrate", "--db", database.url, "--json"]);
    expect(migrated.code, migrated.stderr).toBe(0);
    const latest = POSTGRES_MIGRATIONS.at(-1)!.version;
    expect(JSON.parse(migrated.stdout)).toMatchObject({
      from: latest - 1,
      to: latest,
      applied: [latest],
    });
    const check = new pg.Pool({ connectionString: database.url, max: 1 });
    check.on("error", () => {});
    expect(await summarizeTables(postgresCopyEndpoint({ pool: check, label: "new" }))).toEqual(
      expected,
    );
    await check.end();
    await expectServed(database.url);
  }, 120_000);
});
