// The copy's table knowledge against both migration histories, its checksum, and a copy of a
// row in every table with awkward values SQLite -> PostgreSQL -> SQLite, compared exactly.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  COPY_TABLES,
  CopyError,
  type CopyRow,
  copyDatabase,
  postgresCopyEndpoint,
  sqliteCopyEndpoint,
  summarizeTables,
  UNCOPIED_TABLES,
} from "../src/copy";
import { createTableDigest } from "../src/copy/rows";
import { createTestDatabase, pgServerReason } from "./_postgres";

const missing = await pgServerReason();
if (missing && process.env.CI === "true") throw new Error(`CI needs PostgreSQL: ${missing}`);
const withServer = missing ? describe.skip : describe;

let dir = "";
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "tminus-copy-"));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Every table a migrated database has is known, with exactly the known columns. */
function expectKnown(tables: Map<string, string[]>) {
  for (const [name, columns] of tables) {
    const known = COPY_TABLES.find((t) => t.name === name);
    if (!known) {
      expect(UNCOPIED_TABLES, `table ${name} is neither copied nor left on purpose`).toHaveProperty(
        name,
      );
      continue;
    }
    expect(columns.sort(), name).toEqual(known.columns.map((c) => c.name).sort());
  }
  for (const table of COPY_TABLES) expect([...tables.keys()]).toContain(table.name);
}

describe("copy: the table catalogue", () => {
  it("knows every table and column of the SQLite schema", async () => {
    const side = sqliteCopyEndpoint({ path: join(dir, "schema.db") });
    await side.migrate();
    expectKnown(await side.tables());
    await side.close();
  });

  it("refuses a source with a table or a column it does not know", async () => {
    for (const [extra, code] of [
      ["CREATE TABLE plugin_notes (id TEXT)", "unknown_table"],
      ["ALTER TABLE timers ADD COLUMN colour TEXT", "unknown_column"],
    ] as const) {
      const path = join(dir, `${code}.db`);
      const from = sqliteCopyEndpoint({ path });
      await from.migrate();
      const raw = new Database(path);
      raw.exec(extra);
      raw.close();
      const to = sqliteCopyEndpoint({ path: join(dir, `${code}-to.db`) });
      const error = await copyDatabase(from, to).catch((e) => e);
      expect(error).toBeInstanceOf(CopyError);
      expect(error.code).toBe(code);
      await from.close();
      await to.close();
    }
  });

  it("the checksum ignores row order, counts duplicates and sees any changed value", () => {
    const value = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.double({ noNaN: true }),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.string(), { maxLength: 3 }),
    );
    const row = fc.array(value, { minLength: 1, maxLength: 6 });
    const rowsAndShuffle = fc
      .array(row, { minLength: 1, maxLength: 20 })
      .chain((rows) =>
        fc.tuple(
          fc.constant(rows),
          fc.shuffledSubarray(rows, { minLength: rows.length, maxLength: rows.length }),
        ),
      );
    const sum = (list: CopyRow[]) => {
      const digest = createTableDigest();
      for (const r of list) digest.add(r);
      return digest.hex();
    };
    fc.assert(
      fc.property(rowsAndShuffle, ([rows, shuffled]) => {
        expect(sum(shuffled)).toBe(sum(rows));
        expect(sum([...rows, rows[0]!])).not.toBe(sum(rows));
        const changed = rows.map((r) => [...r]);
        changed[0]![0] = JSON.stringify(changed[0]![0]) + "x";
        expect(sum(changed)).not.toBe(sum(rows));
      }),
    );
  });
});

/** One row per table, with values each adapter stores differently. */
function fillEveryTable(path: string) {
  const db = new Database(path);
  const value = (table: string, column: string, type: string, n: number): unknown => {
    if (column === "account_id") return "acc-1";
    if (column === "user_id") return "user-1";
    if (column === "event_id") return "evt-1";
    if (column === "environment") return "production";
    if (table === "accounts" && column === "status") return "active";
    if (table === "timers" && column === "type") return "duration";
    if (table === "timers" && column === "status") return "published";
    if (table === "webhook_deliveries" && column === "status") return "pending";
    if (table === "users" && column === "role") return "owner";
    switch (type) {
      case "text":
        return `${table}.${column} ✓ "quoted" é ${n}`;
      case "int":
        // Instants are bigint on PostgreSQL; counts and revisions integer.
        return /_at$|window_start|fired_through/.test(column) ? 1_790_000_000_000 + n : 7 + n;
      case "real":
        return 12.345678901234567 + n;
      case "bool":
        return n % 2;
      case "json":
        // Key order and spacing must survive: PostgreSQL json keeps them, jsonb would not.
        return `{"z": 1, "a": [1, 2.5, "\\u00e9"], "m": {"y": null, "b": true}}`;
      case "jsonmap":
        return `{"x-b":"2","content-type":"application/json"}`;
      case "textlist":
        return JSON.stringify(["timer.created", `é ${n}`]);
      case "bytes":
        // Every byte value, NUL and high bytes included, and a different length per row.
        return Buffer.from(Array.from({ length: 256 + n }, (_, i) => (i * 7 + n) % 256));
    }
    throw new Error(type);
  };
  for (const table of COPY_TABLES) {
    const cols = table.columns;
    const insert = db.prepare(
      `INSERT INTO ${table.name} (${cols.map((c) => c.name).join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`,
    );
    for (let n = 0; n < 3; n++) {
      insert.run(
        ...cols.map((c) => {
          if (c.name === "id" && table.name === "accounts")
            return n === 0 ? "acc-1" : `acc-${n + 1}`;
          if (c.name === "id" && table.name === "users")
            return n === 0 ? "user-1" : `user-${n + 1}`;
          if (c.name === "id" && table.name === "webhook_events")
            return n === 0 ? "evt-1" : `evt-${n + 1}`;
          if (c.name === "name" && table.name === "accounts") return `account ${n}`;
          if (c.name === "email") return `u${n}@example.com`;
          // Nullable columns get a NULL in one row of three.
          if (n === 2 && !table.key.includes(c.name) && nullable(db, table.name, c.name))
            return null;
          return value(table.name, c.name, c.type, n);
        }),
      );
    }
  }
  db.close();
}

function nullable(db: Database.Database, table: string, column: string): boolean {
  const info = db.prepare(`PRAGMA table_info(${table})`).all() as {
    name: string;
    notnull: number;
  }[];
  return info.find((c) => c.name === column)?.notnull === 0;
}

/** Every row of every copied table as SQLite stores it, sorted. */
function dump(path: string): Record<string, unknown[]> {
  const db = new Database(path, { readonly: true });
  const out: Record<string, unknown[]> = {};
  for (const table of COPY_TABLES) {
    out[table.name] = db
      .prepare(`SELECT * FROM ${table.name} ORDER BY ${table.key.join(", ")}`)
      .all();
  }
  db.close();
  return out;
}

describe("copy: resuming", () => {
  it("continues after the last committed batch, and the verification catches a row changed in place", async () => {
    const first = join(dir, "resume-from.db");
    const prepared = sqliteCopyEndpoint({ path: first });
    await prepared.migrate();
    await prepared.close();
    fillEveryTable(first);
    const from = sqliteCopyEndpoint({ path: first, mustExist: true });
    const to = sqliteCopyEndpoint({ path: join(dir, "resume-to.db") });
    // Interrupted after the first batch of timers committed.
    const stop = new Error("interrupted");
    const cut = await copyDatabase(from, to, {
      batchSize: 1,
      onProgress: (e) => {
        if (e.table === "timers" && e.tableRows === 1) throw stop;
      },
    }).catch((e) => e);
    expect(cut).toBe(stop);
    // A target holding an unfinished copy is no source.
    const refused = await copyDatabase(to, sqliteCopyEndpoint({ path: join(dir, "x.db") })).catch(
      (e) => e,
    );
    expect(refused).toMatchObject({ code: "other_copy" });
    // Resumed: only what was missing is written, and everything verifies.
    const resumed = await copyDatabase(from, to, { batchSize: 2 });
    expect(resumed).toMatchObject({ ok: true, resumed: true });
    expect(resumed.copiedRows).toBe(COPY_TABLES.length * 3 - (3 + 3 + 1));

    // Again, but the source changes a row the interrupted run had already copied.
    const other = sqliteCopyEndpoint({ path: join(dir, "resume-changed.db") });
    await copyDatabase(from, other, {
      batchSize: 1,
      onProgress: (e) => {
        if (e.table === "timers" && e.tableRows === 2) throw stop;
      },
    }).catch(() => {});
    const raw = new Database(first);
    raw
      .prepare(
        "UPDATE timers SET name = 'changed meanwhile' WHERE id = (SELECT min(id) FROM timers)",
      )
      .run();
    raw.close();
    const stale = await copyDatabase(from, other);
    expect(stale.ok).toBe(false);
    expect(stale.tables.filter((t) => !t.ok).map((t) => t.table)).toEqual(["timers"]);
    // The resume record stays, so nothing takes the target for finished; --force starts over.
    const again = await copyDatabase(from, other, { force: true });
    expect(again).toMatchObject({ ok: true, resumed: false });
    for (const side of [from, to, other]) await side.close();
  });
});

withServer("copy: SQLite -> PostgreSQL -> SQLite", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: pg.Pool;
  beforeAll(async () => {
    database = await createTestDatabase();
    pool = new pg.Pool({ connectionString: database.url, max: 3 });
    pool.on("error", () => {});
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  it("knows every table and column of the PostgreSQL schema", async () => {
    const side = postgresCopyEndpoint({ pool, label: "pg" });
    await side.migrate();
    expectKnown(await side.tables());
    await side.close();
  });

  it("carries a row of every table, with every awkward value, there and back unchanged", async () => {
    const first = join(dir, "every-first.db");
    const prepared = sqliteCopyEndpoint({ path: first });
    await prepared.migrate();
    await prepared.close();
    fillEveryTable(first);
    const from = sqliteCopyEndpoint({ path: first, mustExist: true });
    const middle = postgresCopyEndpoint({ pool, label: "pg" });
    const there = await copyDatabase(from, middle, { batchSize: 2 });
    expect(there.ok, JSON.stringify(there.tables.filter((t) => !t.ok))).toBe(true);
    expect(there.copiedRows).toBe(COPY_TABLES.length * 3);
    for (const t of there.tables) expect(t.target?.rows, t.table).toBe(3);

    const last = join(dir, "every-last.db");
    const back = sqliteCopyEndpoint({ path: last });
    const again = await copyDatabase(middle, back, { batchSize: 2 });
    expect(again.ok).toBe(true);
    expect(again.tables.map((t) => t.target?.checksum)).toEqual(
      there.tables.map((t) => t.source?.checksum),
    );
    await from.close();
    await back.close();
    const [a, b] = [dump(first), dump(last)];
    // jsonb rewrites the text of a map (same entries): compare those parsed, the rest exactly.
    for (const rows of [a.idempotency_keys, b.idempotency_keys] as Record<string, unknown>[][]) {
      for (const r of rows) r.response_headers = JSON.parse(String(r.response_headers));
    }
    expect(b).toEqual(a);
    // And the summaries of the two files agree (the same code on both sides).
    const sa = await summarizeTables(sqliteCopyEndpoint({ path: first, mustExist: true }));
    const sb = await summarizeTables(sqliteCopyEndpoint({ path: last, mustExist: true }));
    expect(sb).toEqual(sa);
  });
});
