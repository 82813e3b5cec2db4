import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  migratePostgres,
  type PgPool,
  POSTGRES_MIGRATIONS,
  PostgresStoreError,
  postgresSchemaVersion,
  postgresStore,
} from "../src/postgres";
import { deliverThenPurge } from "./_purge-scenario";
import { createInput, createTimer, newAccount, newTimer } from "./suite/_fixtures";

/** The databases the PostgreSQL specifics run against. */
export interface PostgresTestBed {
  /** The file's pool, shared with the conformance suite (fresh random accounts per test). */
  pool(): PgPool;
  /** A fresh, empty database for one test; `url` where a server can be reached by URL. */
  fresh(): Promise<{ pool: PgPool; url?: string; drop(): Promise<void> }>;
}

/** Test name → why it cannot run on this bed. Declared, never a silent skip. */
export type Exclusions = Readonly<Record<string, string>>;

/**
 * What is specific to PostgreSQL beyond the conformance suite: migrations (once, rolled back,
 * across processes), schema checks, the pool the store opens itself, rows the contract cannot
 * see. Each test named in `exclusions` is reported as skipped with its reason in its name; an
 * exclusion that names no test fails, so the list cannot go stale.
 */
export function postgresSpecificTests(bed: PostgresTestBed, exclusions: Exclusions = {}): void {
  const unused = new Set(Object.keys(exclusions));
  const test = (name: string, fn: () => Promise<void>) => {
    const reason = exclusions[name];
    unused.delete(name);
    if (reason === undefined) it(name, fn);
    else it.skip(`${name} [excluded: ${reason}]`, fn);
  };

  describe("PostgreSQL specifics", () => {
    test("the retention purge leaves no event, delivery or attempt of a purged delivery", async () => {
      const { account_id, delivery_ids } = await deliverThenPurge(
        postgresStore({ pool: bed.pool() }),
      );
      const { rows } = await bed.pool().query(
        `SELECT (SELECT count(*)::int FROM webhook_events WHERE account_id = $1) AS events,
         (SELECT count(*)::int FROM webhook_deliveries WHERE account_id = $1) AS deliveries,
         (SELECT count(*)::int FROM webhook_attempts WHERE delivery_id = ANY($2)) AS attempts`,
        [account_id, delivery_ids],
      );
      expect(delivery_ids).toHaveLength(1);
      expect(rows[0]).toEqual({ events: 0, deliveries: 0, attempts: 0 });
    });

    test("calls a throwing payload only when a destination wants the event, as SQLite does", async () => {
      const store = postgresStore({ pool: bed.pool() });
      const account = await newAccount(store);
      const broken = {
        id: randomUUID(),
        type: "timer.created" as const,
        occurred_at: 0,
        payload: () => {
          throw new Error("no payload");
        },
      };
      // Nobody subscribed: the create does not need the payload and succeeds.
      await createTimer(store, createInput(newTimer(account), { events: [broken] }));
      await store.createWebhookDestination({
        destination: {
          id: randomUUID(),
          account_id: account.id,
          environment: "production",
          url: "https://hooks.example.com/",
          description: null,
          events: ["timer.created"],
          enabled: true,
          secret: "whsec_x",
          created_at: 0,
        },
        max_destinations: 10,
      });
      const refused = createInput(newTimer(account), { events: [broken] });
      await expect(store.createTimer(refused)).rejects.toThrow("no payload");
      expect(await store.getTimer(account.id, "production", refused.timer.id)).toBeNull();
      await store.close();
    });

    test("opens and ends its own pool from a connection string", async () => {
      const db = await bed.fresh();
      try {
        const store = postgresStore({ connectionString: db.url!, max: 2 });
        await store.ready();
        const account = await newAccount(store);
        const timer = await createTimer(store, createInput(newTimer(account)));
        await store.close();
        await expect(store.getTimer(account.id, "production", timer.id)).rejects.toThrow(/closed/);
        // The data is there for another store over the same database.
        const again = postgresStore({ pool: db.pool });
        expect(await again.getTimer(account.id, "production", timer.id)).toEqual(timer);
        await again.close();
      } finally {
        await db.drop();
      }
    });

    test("migrates once: a current schema is left alone", async () => {
      const db = await bed.fresh();
      try {
        expect(await postgresSchemaVersion(db.pool)).toBe(0);
        expect(await migratePostgres(db.pool)).toEqual(POSTGRES_MIGRATIONS.map((m) => m.version));
        expect(await migratePostgres(db.pool)).toEqual([]);
        const { rows } = await db.pool.query(
          "SELECT version FROM tminus_schema_migrations ORDER BY version",
        );
        expect(rows).toEqual(POSTGRES_MIGRATIONS.map((m) => ({ version: m.version })));
      } finally {
        await db.drop();
      }
    });

    test("rolls a failing migration back entirely", async () => {
      const db = await bed.fresh();
      try {
        await migratePostgres(db.pool);
        const broken = [
          ...POSTGRES_MIGRATIONS,
          {
            version: 99,
            name: "broken",
            sql: "CREATE TABLE half_done (a int); SELECT no_such_function();",
          },
        ];
        await expect(migratePostgres(db.pool, broken)).rejects.toThrow(/no_such_function/);
        expect(await postgresSchemaVersion(db.pool)).toBe(POSTGRES_MIGRATIONS.at(-1)!.version);
        const { rows } = await db.pool.query("SELECT to_regclass('half_done') AS t");
        expect(rows).toEqual([{ t: null }]);
        // The advisory lock was released: the next migration runs.
        expect(await migratePostgres(db.pool)).toEqual([]);
      } finally {
        await db.drop();
      }
    });

    test("with migrate: false, refuses an unmigrated database and accepts a migrated one", async () => {
      const db = await bed.fresh();
      try {
        const early = postgresStore({ pool: db.pool, migrate: false });
        const refusal = await early.ready().then(
          () => null,
          (e: unknown) => e,
        );
        expect(refusal).toBeInstanceOf(PostgresStoreError);
        expect(refusal).toMatchObject({ code: "schema_outdated" });
        expect((refusal as Error).message).toMatch(/tminus migrate/);
        expect((refusal as Error).message).not.toContain("\n");
        // Every method reports the same reason; nothing was created.
        await expect(early.listAccounts()).rejects.toBe(refusal);
        expect(await postgresSchemaVersion(db.pool)).toBe(0);
        await early.close();
        await migratePostgres(db.pool);
        const late = postgresStore({ pool: db.pool, migrate: false });
        await late.ready();
        expect(await late.listAccounts()).toEqual([]);
        await late.close();
      } finally {
        await db.drop();
      }
    });

    test("refuses a database with a newer schema, migrating or not", async () => {
      const db = await bed.fresh();
      try {
        await migratePostgres(db.pool);
        await db.pool.query(
          "INSERT INTO tminus_schema_migrations (version, name) VALUES (1000, 'future')",
        );
        for (const migrate of [true, false]) {
          const store = postgresStore({ pool: db.pool, migrate });
          await expect(store.ready()).rejects.toMatchObject({
            name: "PostgresStoreError",
            code: "schema_newer",
            message: expect.stringMatching(/version 1000, newer than this code knows/),
          });
          await expect(store.listAccounts()).rejects.toMatchObject({ code: "schema_newer" });
          await store.close();
        }
        await expect(migratePostgres(db.pool)).rejects.toMatchObject({ code: "schema_newer" });
      } finally {
        await db.drop();
      }
    });

    test("four processes migrating one database at once apply each migration once", async () => {
      const db = await bed.fresh();
      try {
        // A slow extra step makes the processes overlap for sure: without the advisory lock
        // two of them would both run it (and fail on the table or the version row).
        const program = `
        const { migratePostgres, POSTGRES_MIGRATIONS } = await import(${JSON.stringify(distUrl)});
        const { default: pg } = await import("pg");
        const pool = new pg.Pool({ connectionString: process.env.DB_URL, max: 1 });
        await pool.query("SELECT 1");
        process.stdout.write("ready\\n");
        await new Promise((go) => process.stdin.once("data", go));
        const slow = { version: 1000, name: "slow", sql: "SELECT pg_sleep(0.3); CREATE TABLE slow_step (id int);" };
        const applied = await migratePostgres(pool, [...POSTGRES_MIGRATIONS, slow]);
        process.stdout.write(JSON.stringify(applied) + "\\n");
        await pool.end();
      `;
        const children = Array.from({ length: 4 }, () =>
          spawn(process.execPath, ["--input-type=module", "-e", program], {
            cwd: packageRoot,
            env: { ...process.env, DB_URL: db.url! },
            stdio: ["pipe", "pipe", "pipe"],
          }),
        );
        const outputs = children.map(collect);
        // Every process is connected before any starts migrating.
        await Promise.all(outputs.map((o) => o.line(0)));
        for (const child of children) child.stdin.end("go\n");
        const results = await Promise.all(outputs.map((o) => o.done));
        const applied = results.map((r) => JSON.parse(r.lines[1]!) as number[]);
        const all = [...POSTGRES_MIGRATIONS.map((m) => m.version), 1000];
        expect(applied.filter((a) => a.length > 0)).toEqual([all]);
        expect(applied.filter((a) => a.length === 0)).toHaveLength(3);
        const { rows } = await db.pool.query(
          "SELECT version FROM tminus_schema_migrations ORDER BY version",
        );
        expect(rows.map((r) => r.version)).toEqual(all);
      } finally {
        await db.drop();
      }
    });
    if (unused.size > 0) {
      throw new Error(`exclusions that name no test: ${[...unused].join("; ")}`);
    }
  });
}

const packageRoot = fileURLToPath(new URL("..", import.meta.url));
const distUrl = new URL("../dist/postgres.js", import.meta.url).href;

/** Lines a child process prints, and its end (rejecting on a non-zero exit). */
function collect(child: ReturnType<typeof spawn>) {
  const lines: string[] = [];
  const waiters: (() => void)[] = [];
  let stderr = "";
  let buffer = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    const parts = buffer.split("\n");
    buffer = parts.pop()!;
    lines.push(...parts);
    for (const wake of waiters.splice(0)) wake();
  });
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const done = new Promise<{ lines: string[] }>((resolve, reject) => {
    child.on("exit", (code) =>
      code === 0 ? resolve({ lines }) : reject(new Error(`child exited ${code}: ${stderr}`)),
    );
  });
  const line = async (n: number): Promise<string> => {
    while (lines.length <= n) {
      await Promise.race([new Promise<void>((wake) => waiters.push(wake)), done]);
    }
    return lines[n]!;
  };
  return { line, done };
}
