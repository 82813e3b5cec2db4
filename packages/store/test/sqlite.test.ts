import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type SqliteDatabase, sqliteStore } from "../src/sqlite";
import { migrate } from "../src/sqlite/migrate";
import { MIGRATIONS } from "../src/sqlite/migrations";
import { deliverThenPurge } from "./_purge-scenario";
import { runStoreSuite } from "./store-suite";
import { CYCLE, createInput, createTimer, newAccount, newTimer, T0 } from "./suite/_fixtures";

runStoreSuite("sqlite (file)", async () => {
  const dir = await mkdtemp(join(tmpdir(), "tminus-store-"));
  return {
    store: sqliteStore({ path: join(dir, "tminus.db") }),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});

describe("sqliteStore", () => {
  let dir: string;
  let path: string;
  const handles: { close(): unknown }[] = [];
  /** Opens a raw handle that is closed after the test. */
  const open = (file = path) => {
    const db = new Database(file);
    handles.push(db);
    return db;
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "tminus-sqlite-"));
    path = join(dir, "tminus.db");
  });
  afterEach(async () => {
    for (const handle of handles.splice(0)) handle.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("creates parent directories and runs in WAL mode with the required pragmas", async () => {
    const nested = join(dir, "nested", "dir", "tminus.db");
    const store = sqliteStore({ path: nested });
    const db = open(nested);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    await store.close();

    const handle = open();
    const onHandle = sqliteStore({ database: handle });
    expect(handle.pragma("synchronous", { simple: true })).toBe(1); // NORMAL
    expect(handle.pragma("foreign_keys", { simple: true })).toBe(1);
    expect(handle.pragma("busy_timeout", { simple: true })).toBe(5000);
    await onHandle.close();
  });

  it("migrates once: reopening keeps the data and applies nothing", async () => {
    const first = sqliteStore({ path });
    const account = await newAccount(first);
    const timer = await createTimer(first, createInput(newTimer(account)));
    await first.close();

    const second = sqliteStore({ path });
    expect(await second.getTimer(account.id, "production", timer.id)).toEqual(timer);
    expect((await second.getUsage(account.id, "production", CYCLE)).new_timers).toBe(1);
    await second.close();

    const db = open();
    expect(migrate(db)).toEqual([]);
    const versions = db.prepare("SELECT version FROM schema_migrations ORDER BY version").all();
    expect(versions).toEqual(MIGRATIONS.map((m) => ({ version: m.version })));
  });

  it("rolls a failing migration back entirely", async () => {
    const db = open();
    migrate(db);
    const broken = [
      ...MIGRATIONS,
      {
        version: 99,
        name: "broken",
        sql: "CREATE TABLE half_done (a); SELECT no_such_function();",
      },
    ];
    expect(() => migrate(db, broken)).toThrow();
    expect(db.prepare("SELECT max(version) AS v FROM schema_migrations").get()).toEqual({
      v: MIGRATIONS.at(-1)!.version,
    });
    expect(
      db.prepare("SELECT name FROM sqlite_master WHERE name = 'half_done'").get(),
    ).toBeUndefined();
  });

  it("with migrate: false, refuses an unmigrated database and accepts a migrated one", async () => {
    expect(() => sqliteStore({ path, migrate: false })).toThrow(/migrate: true/);
    await sqliteStore({ path }).close();
    await sqliteStore({ path, migrate: false }).close();
  });

  it("refuses a database written by a newer schema", async () => {
    await sqliteStore({ path }).close();
    const db = open();
    db.prepare("INSERT INTO schema_migrations (version, name) VALUES (1000, 'future')").run();
    expect(() => sqliteStore({ path })).toThrow(/newer/);
  });

  it("works on a better-sqlite3 handle the caller opened, and leaves it open", async () => {
    const db = open();
    const store = sqliteStore({ database: db });
    const account = await newAccount(store);
    expect(db.prepare("SELECT name FROM accounts WHERE id = ?").get(account.id)).toEqual({
      name: account.name,
    });
    await store.close();
    expect(db.open).toBe(true);
  });

  it("the retention purge leaves no event, delivery or attempt of a purged delivery", async () => {
    const store = sqliteStore({ path });
    const { account_id, delivery_ids } = await deliverThenPurge(store);
    await store.close();
    const db = open();
    const count = (sql: string, ...args: unknown[]) =>
      (db.prepare(sql).get(...args) as { n: number }).n;
    expect(delivery_ids).toHaveLength(1);
    expect(count("SELECT count(*) AS n FROM webhook_events WHERE account_id = ?", account_id)).toBe(
      0,
    );
    expect(
      count("SELECT count(*) AS n FROM webhook_deliveries WHERE account_id = ?", account_id),
    ).toBe(0);
    expect(
      count("SELECT count(*) AS n FROM webhook_attempts WHERE delivery_id = ?", delivery_ids[0]),
    ).toBe(0);
  });

  it("shares one file between two store instances", async () => {
    const a = sqliteStore({ path });
    const b = sqliteStore({ path });
    const account = await newAccount(a);
    expect(await b.getAccount(account.id)).toEqual(account);
    const allowance = { cycle_id: CYCLE, limit: 10 };
    const outcomes = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        (i % 2 ? a : b).createTimer(createInput(newTimer(account), { allowance })),
      ),
    );
    expect(outcomes.filter((o) => o.kind === "created")).toHaveLength(10);
    expect((await a.getUsage(account.id, "production", CYCLE)).new_timers).toBe(10);
    await a.close();
    await b.close();
  });

  it("prepares statements once: per-request methods prepare nothing", async () => {
    const db = open();
    let prepared = 0;
    const counting: SqliteDatabase = {
      prepare: (sql) => {
        prepared++;
        return db.prepare(sql);
      },
      exec: (sql) => db.exec(sql),
      transaction: (fn) => db.transaction(fn),
      close: () => db.close(),
    };
    const store = sqliteStore({ database: counting });
    const account = await newAccount(store);
    const key = await store.createApiKey({
      id: randomUUID(),
      account_id: account.id,
      environment: "production",
      prefix: "svc_live_abcdefgh",
      hash: "h",
      scopes: ["*"],
      max_active_keys: 3,
      now: T0,
    });
    const timer = await createTimer(store, createInput(newTimer(account)));
    const before = prepared;
    for (let i = 0; i < 3; i++) {
      await store.findApiKeyByHash(key.hash);
      await store.reserveRequests({
        window_start: T0,
        buckets: [{ bucket: "k", limit: 100, want: 1 }],
      });
      await store.addUsage([
        {
          account_id: account.id,
          environment: "production",
          cycle_id: CYCLE,
          metric: "api_requests",
          amount: 1,
        },
      ]);
      await store.readGenerations();
      await store.getTimer(account.id, "production", timer.id);
      await store.createTimer(createInput(newTimer(account)));
      await store.logRequests([
        {
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
        },
      ]);
    }
    expect(prepared).toBe(before);
    await store.close();
  });
});
