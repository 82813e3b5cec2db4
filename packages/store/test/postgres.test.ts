import { createHash, randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Store } from "../src/contract";
import { type PgPool, postgresStore } from "../src/postgres";
import { MAX_NAMED_STATEMENTS, namedStatementCount } from "../src/postgres/_statements";
import { createTestDatabase, pgServerReason } from "./_postgres";
import { postgresSpecificTests } from "./_postgres-specifics";
import { runStoreSuite } from "./store-suite";
import {
  CYCLE,
  createInput,
  createTimer,
  newAccount,
  newTimer,
  type SuiteContext,
  T0,
  unique,
} from "./suite/_fixtures";
import { apiKeyTests } from "./suite/api-keys";
import { changeTimerTests } from "./suite/change-timer";
import { createTimerTests } from "./suite/create-timer";
import { meteringTests } from "./suite/metering";

// The PostgreSQL adapter against the real server: the whole conformance suite, then what is
// specific to PostgreSQL (migrations across processes, schema checks, the pool's shape).
const missing = await pgServerReason();
if (missing && process.env.CI === "true") throw new Error(`CI needs PostgreSQL: ${missing}`);
const withServer = missing ? describe.skip : describe;

withServer("postgresStore", () => {
  // One database for this file; the suite's stores share it (fresh random accounts per test)
  // and one pool, as the processes of a deployment share one database.
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: pg.Pool;
  beforeAll(async () => {
    database = await createTestDatabase();
    pool = new pg.Pool({ connectionString: database.url, max: 10 });
    // pool.end() does not wait for its connections to close; dropping the database (FORCE)
    // then ends them from the server side, which pg reports as an "error" event.
    pool.on("error", () => {});
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  // The whole suite with prepared statements on (the default); the groups that run the named
  // statements once more with them off, below.
  runStoreSuite("postgres", async () => ({ store: postgresStore({ pool }) }));

  describe("prepared statements", () => {
    /**
     * The hot statements on a pool of ONE connection, so pg_prepared_statements (which shows
     * the statements of the connection asking) sees everything the store prepared.
     */
    const preparedAfterWork = async (preparedStatements: boolean) => {
      const one = new pg.Pool({ connectionString: database.url, max: 1 });
      one.on("error", () => {});
      const store = postgresStore({ pool: one, preparedStatements });
      try {
        const account = await newAccount(store);
        const hash = unique("hash");
        await store.createApiKey({
          id: randomUUID(),
          account_id: account.id,
          environment: "production",
          prefix: unique("svc_live"),
          hash,
          scopes: ["*"],
          max_active_keys: 10,
          now: T0,
        });
        for (let i = 0; i < 8; i++) expect(await store.findApiKeyByHash(hash)).not.toBeNull();
        const bucket = unique("key");
        for (let i = 0; i < 3; i++) {
          await store.reserveRequests({
            window_start: T0,
            buckets: [{ bucket, limit: 100, want: 10 }],
          });
        }
        const timer = await createTimer(store, createInput(newTimer(account)));
        await createTimer(
          store,
          createInput(newTimer(account), {
            idempotency: { key: unique("idem"), fingerprint: "fp", expires_at: T0 + 60_000 },
          }),
        );
        expect(await store.getTimer(account.id, "production", timer.id)).toEqual(timer);
        await store.addUsage([
          {
            account_id: account.id,
            environment: "production",
            cycle_id: CYCLE,
            metric: "api_requests",
            amount: 3,
          },
        ]);
        expect(await store.getUsage(account.id, "production", CYCLE)).toMatchObject({
          api_requests: 3,
          new_timers: 2,
        });
        const { rows } = await one.query<{
          name: string;
          statement: string;
          executions: number | null;
        }>(
          // generic_plans and custom_plans (PostgreSQL 14+) count its executions.
          `SELECT name, statement, ${
            Number((await one.query("SHOW server_version_num")).rows[0].server_version_num) >=
            140000
              ? "(generic_plans + custom_plans)::int"
              : "NULL::int"
          } AS executions
           FROM pg_prepared_statements WHERE name LIKE 'tminus%'`,
        );
        return rows;
      } finally {
        await store.close();
        await one.end();
      }
    };

    it("on (the default): the hot statements are prepared once per connection, named by a hash of their text", async () => {
      const prepared = await preparedAfterWork(true);
      for (const row of prepared) {
        const hash = createHash("sha256").update(row.statement).digest("hex").slice(0, 24);
        expect(row.name).toBe(`tminus_${hash}`);
      }
      const find = (part: string) => prepared.filter((row) => row.statement.includes(part));
      // The key lookup, the rate-limit reservation, the timer read, usage, the create (one
      // text without an idempotency key, one with) and the idempotency claim.
      expect(find("k.hash = $1")).toHaveLength(1);
      expect(find("bumped AS (")).toHaveLength(1);
      expect(
        find("WHERE id = $1 AND account_id = $2 AND environment = $3 AND deleted_at IS NULL"),
      ).toHaveLength(1);
      expect(find("INSERT INTO usage_counters AS u")).toHaveLength(3); // add, 2 creates
      expect(find("SELECT metric, total FROM usage_counters")).toHaveLength(1);
      expect(find("INSERT INTO idempotency_keys")).toHaveLength(1);
      // Executed by name each time, not prepared again (PostgreSQL 14+ counts it).
      const lookup = find("k.hash = $1")[0]!;
      if (lookup.executions !== null) expect(lookup.executions).toBe(8);
      expect(find("bumped AS (")[0]!.executions ?? 3).toBe(3);
      // Key creation is cold: sent unnamed.
      expect(find("FOR NO KEY UPDATE")).toHaveLength(0);
    });

    it("off: every statement is sent unnamed, nothing is prepared", async () => {
      expect(await preparedAfterWork(false)).toEqual([]);
    });

    it("the suite named fewer statement texts than the bound", () => {
      // This file's suite ran every variant of the assembled statements (creates, changes).
      expect(namedStatementCount()).toBeGreaterThan(10);
      expect(namedStatementCount()).toBeLessThan(MAX_NAMED_STATEMENTS / 2);
    });
  });

  /**
   * The conformance groups that run named statements (key lookup, reservations and usage,
   * creates with and without idempotency keys, changes and reads), with prepared statements
   * off: what a deployment behind PgBouncer in transaction mode runs. The rest of the suite
   * sends the same unnamed statements both ways, so it runs once, above.
   */
  describe("Store conformance, named statements' groups, preparedStatements: false", () => {
    let store: Store | undefined;
    const ctx: SuiteContext = {
      get store() {
        if (!store) throw new Error("the store is only available inside a test");
        return store;
      },
    };
    beforeEach(() => {
      store = postgresStore({ pool, preparedStatements: false });
    });
    afterEach(async () => {
      await store?.close();
      store = undefined;
    });
    apiKeyTests(ctx);
    meteringTests(ctx);
    createTimerTests(ctx);
    changeTimerTests(ctx);
  });

  /**
   * A fresh, empty schema of the file's database for one test, dropped after it: the
   * connections of `url` and `pool` have it as their search_path, as a deployment that gives
   * tminus its own schema would. (Much faster than a database per test.)
   */
  const fresh = async () => {
    const schema = `t_${randomUUID().replaceAll("-", "")}`;
    await pool.query(`CREATE SCHEMA ${schema}`);
    const url = new URL(database.url);
    url.searchParams.set("options", `-c search_path=${schema}`);
    const own = new pg.Pool({ connectionString: url.toString(), max: 4 });
    own.on("error", () => {});
    return {
      url: url.toString(),
      pool: own,
      async drop() {
        await own.end();
        await pool.query(`DROP SCHEMA ${schema} CASCADE`);
      },
    };
  };
  postgresSpecificTests({ pool: () => pool, fresh });

  describe("the pg driver", () => {
    it("accepts a pg.Pool through the structural PgPool type", async () => {
      // Compile-time half of the test: a pg.Pool is assignable to our own type.
      const typed: PgPool = pool;
      const store = postgresStore({ pool: typed });
      const account = await newAccount(store);
      expect(await store.getAccount(account.id)).toEqual(account);
      await store.close();
      // The pool was ours: the store must not have ended it.
      expect((await pool.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    });
  });
});
