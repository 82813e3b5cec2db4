import { randomUUID } from "node:crypto";
import type { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe } from "vitest";
import { type PgPool, postgresStore } from "../src/postgres";
import { createPglite, pglitePool } from "./_pglite";
import { type Exclusions, postgresSpecificTests } from "./_postgres-specifics";
import { runStoreSuite } from "./store-suite";

// The PostgreSQL adapter on PGlite (PostgreSQL compiled to WebAssembly, in this process), so the
// PostgreSQL path is tested on any machine, server or not; postgres.test.ts still runs the same
// tests against the real server (required under CI). Every conformance test runs here. One
// PGlite is one connection: the pool hands it to one transaction at a time, so the concurrency
// tests check their outcomes under serialized transactions; lock contention between
// connections (SKIP LOCKED, the advisory lock) is only exercised on the real server.

/** The PostgreSQL specifics that cannot run on PGlite, and why. */
const NOT_ON_PGLITE: Exclusions = {
  "opens and ends its own pool from a connection string":
    "PGlite has no connection string: the store would load pg and connect to a server",
  "four processes migrating one database at once apply each migration once":
    "a PGlite database lives in one process; the advisory lock needs several connections",
};

describe("postgresStore on PGlite", () => {
  // One PGlite for the file (starting one takes seconds); the suite's stores share it with
  // fresh random accounts per test, as on the server.
  let db: PGlite;
  let pool: PgPool;
  beforeAll(async () => {
    db = await createPglite();
    pool = pglitePool(db);
  });
  afterAll(async () => {
    await db?.close();
  });

  runStoreSuite("postgres on PGlite", async () => ({ store: postgresStore({ pool }) }));

  postgresSpecificTests(
    {
      pool: () => pool,
      // An empty schema of the file's PGlite, as on the server (a new PGlite takes seconds).
      async fresh() {
        const schema = `t_${randomUUID().replaceAll("-", "")}`;
        await pool.query(`CREATE SCHEMA ${schema}`);
        return {
          pool: pglitePool(db, { searchPath: schema }),
          drop: async () => {
            await pool.query(`DROP SCHEMA ${schema} CASCADE`);
          },
        };
      },
    },
    NOT_ON_PGLITE,
  );
});
