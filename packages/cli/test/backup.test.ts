// `tminus backup` and `restore`: a snapshot taken while `tminus serve` keeps creating timers is
// consistent (every timer with its idempotency record, nothing half written), restores into an
// empty database only, and is verified there against its manifest. SQLite through its backup
// API; PostgreSQL through pg_dump/pg_restore on the real server.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { inLanes } from "./_fill";
import {
  api,
  createTestDatabase,
  describeWithPostgres,
  type IssuedKey,
  issueKey,
  listAll,
  serve,
  stop,
  stopAll,
  TIMER,
  tminus,
} from "./_processes";

const describePg = await describeWithPostgres();

type Database = Awaited<ReturnType<typeof createTestDatabase>>;

describePg("tminus backup / restore", () => {
  let dir = "";
  let config = "";
  const databases: Database[] = [];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "tminus-backup-"));
    // backup makes no folder: --out's must exist.
    mkdirSync(join(dir, "backups"));
    config = join(dir, "config.json");
    writeFileSync(
      config,
      JSON.stringify({
        plans: { starter: { requests_per_minute: 1_000_000, new_timers_per_cycle: 1_000_000 } },
      }),
    );
  });
  afterAll(async () => {
    await stopAll();
    for (const d of databases) await d.drop().catch(() => {});
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Creates timers through `base` until stopped; returns how many were acknowledged. */
  function keepCreating(base: string, key: IssuedKey, from: number) {
    let going = true;
    let made = 0;
    const loop = inLanes(1_000_000, 4, async (i) => {
      if (!going) return;
      const res = await api(base, key, "POST", "/timers", {
        body: TIMER,
        headers: { "idempotency-key": `live-${from + i}` },
      });
      if (res.status !== 201) throw new Error(res.text);
      made++;
    });
    return {
      async stop() {
        going = false;
        await loop;
        return made;
      },
    };
  }

  /** Rows per table in a manifest. */
  function manifestRows(file: string): Record<string, number> {
    const manifest = JSON.parse(readFileSync(`${file}.manifest.json`, "utf8"));
    return Object.fromEntries(
      manifest.tables.map((t: { table: string; rows: number }) => [t.table, t.rows]),
    );
  }

  /** Backs up `db` while its serve keeps writing, restores into `restoreTo`, checks both. */
  async function roundTrip(db: string, out: string, restoreTo: string) {
    const a = await serve(["--db", db, "--config", config, "--no-worker"]);
    const key = await issueKey(db, config, "acme");
    await inLanes(300, 8, async (i) => {
      const res = await api(a.url, key, "POST", "/timers", {
        body: TIMER,
        headers: { "idempotency-key": `before-${i}` },
      });
      if (res.status !== 201) throw new Error(res.text);
    });
    const writers = keepCreating(a.url, key, 0);
    const backup = await tminus(["backup", "--db", db, "--out", out]);
    const during = await writers.stop();
    expect(backup.code, backup.stderr).toBe(0);
    expect(during).toBeGreaterThan(0);
    expect(backup.stdout).toMatch(
      /^backed up .+ rows, schema version \d+\); manifest .+\.manifest\.json$/m,
    );
    const rows = manifestRows(out);
    expect(rows.timers).toBeGreaterThanOrEqual(300);
    // One instant: each timer committed with its idempotency record, in the backup or not.
    expect(rows.idempotency_keys).toBe(rows.timers);
    // And not the later state: the server kept writing after it.
    const now = await listAll(a.url, key, "/timers");
    expect(now.length).toBeGreaterThan(rows.timers!);

    expect((await tminus(["backup", "--db", db, "--out", out])).stderr).toMatch(
      /^tminus: .+ already exists; choose a new --out file\n$/,
    );
    const restored = await tminus(["restore", "--from", out, "--db", restoreTo]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(/verified: 28 tables, equal counts and checksums/);
    // Never over a database in use.
    const again = await tminus(["restore", "--from", out, "--db", restoreTo]);
    expect(again.code).toBe(1);
    expect(again.stderr.trim().split("\n")).toHaveLength(1);
    expect(again.stderr).toMatch(/^tminus: .+(already exists|is not empty)/);
    await stop(a.child);

    // The restored database answers with the same key.
    const b = await serve(["--db", restoreTo, "--config", config, "--no-worker"]);
    expect((await listAll(b.url, key, "/timers")).length).toBe(rows.timers);
    await stop(b.child);
  }

  it("--out in a folder that does not exist: one line, and nothing is created", async () => {
    const db = join(dir, "small.db");
    expect((await tminus(["migrate", "--db", db])).code).toBe(0);
    const before = readdirSync(dir).sort();
    const missing = join(dir, "no-such-folder", "deeper");
    const res = await tminus(["backup", "--db", db, "--out", join(missing, "x.db")]);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe("");
    expect(res.stderr).toBe(
      `tminus: the folder of --out, ${missing}, does not exist; create it first\n`,
    );
    expect(readdirSync(dir).sort()).toEqual(before);
  });

  it("SQLite: an online snapshot through the backup API, restored into a new file", async () => {
    await roundTrip(
      join(dir, "live.db"),
      join(dir, "backups", "live-backup.db"),
      join(dir, "restored", "r.db"),
    );
    // A damaged manifest is caught: the restore compares what it restored with it.
    const out = join(dir, "backups", "live-backup.db");
    const manifest = JSON.parse(readFileSync(`${out}.manifest.json`, "utf8"));
    manifest.tables.find((t: { table: string }) => t.table === "timers").checksum = "0".repeat(32);
    writeFileSync(`${out}.manifest.json`, JSON.stringify(manifest));
    const bad = await tminus(["restore", "--from", out, "--db", join(dir, "restored", "bad.db")]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/timers .+DIFFERENT/);
    expect(bad.stderr).toMatch(
      /^tminus: the restored database differs from the backup's manifest\n$/,
    );
  }, 120_000);

  it("PostgreSQL: pg_dump in the manifest's snapshot, pg_restore into an empty database", async () => {
    const live = await createTestDatabase();
    const empty = await createTestDatabase();
    databases.push(live, empty);
    const out = join(dir, "backups", "live.dump");
    await roundTrip(live.url, out, empty.url);
    expect(existsSync(out)).toBe(true);
    // The documented commands, printed.
    const printed = await tminus(["backup", "--db", live.url, "--out", "x.dump", "--print"]);
    expect(printed.stdout).toMatch(
      /^pg_dump --format=custom --no-owner --no-privileges --file=.+x\.dump --dbname=postgres:\/\//,
    );
    expect(printed.stdout).toMatch(
      /^pg_restore --no-owner --no-privileges --exit-on-error --single-transaction/m,
    );
    // A SQLite backup does not restore into PostgreSQL (copy does that).
    const other = await tminus(["restore", "--from", join(dir, "nothing.db"), "--db", empty.url]);
    expect(other.stderr).toMatch(/^tminus: no backup at /);
  }, 120_000);
});
