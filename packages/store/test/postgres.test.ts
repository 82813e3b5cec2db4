import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PgPool, postgresStore } from "../src/postgres";
import { createTestDatabase, pgServerReason } from "./_postgres";
import { postgresSpecificTests } from "./_postgres-specifics";
import { runStoreSuite } from "./store-suite";
import { newAccount } from "./suite/_fixtures";

// The PostgreSQL adapter against the real server: the whole conformance suite, then what is
// specific to PostgreSQL (migrations across processes, schema checks, the pool's shape).
const missing = await pgServerReason();
if (missing && process.env.CI === "true") throw new Error(`CI needs PostgreSQL: ${missing}`);
if (missing) console.warn(`\n*** SKIPPING the PostgreSQL store tests: ${missing} ***\n`);
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

  runStoreSuite("postgres", async () => ({ store: postgresStore({ pool }) }));

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
