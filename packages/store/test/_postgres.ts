import { randomUUID } from "node:crypto";
import pg from "pg";
import { POSTGRES_HOW, skipping } from "../../../test/_skipping";

/** The server the PostgreSQL tests run against (trust auth for user postgres on this machine). */
export const PG_URL = process.env.TMINUS_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432";

/** The URL of database `name` on the test server. */
export function databaseUrl(name: string): string {
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Whether the test server answers. Under CI a missing server is a failure, never a skip
 * (the caller throws); elsewhere the PostgreSQL tests skip with a loud message.
 */
export async function pgServerReason(): Promise<string | null> {
  const client = new pg.Client({ connectionString: databaseUrl("postgres") });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return null;
  } catch (error) {
    const reason = `no PostgreSQL server at ${PG_URL} (${(error as Error).message}); set TMINUS_TEST_PG_URL or start one (bash .ci/run does)`;
    if (process.env.CI !== "true") {
      skipping(`PostgreSQL server at ${PG_URL}: ${(error as Error).message}`, POSTGRES_HOW);
    }
    return reason;
  } finally {
    await client.end().catch(() => {});
  }
}

/** A fresh database for one test file, dropped by `drop()`. */
export async function createTestDatabase(): Promise<{
  name: string;
  url: string;
  drop(): Promise<void>;
}> {
  const name = `tminus_test_${randomUUID().replaceAll("-", "")}`;
  const admin = new pg.Client({ connectionString: databaseUrl("postgres") });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return {
    name,
    url: databaseUrl(name),
    async drop() {
      const client = new pg.Client({ connectionString: databaseUrl("postgres") });
      await client.connect();
      try {
        // FORCE (PostgreSQL 13+): a connection a failed test left open must not keep it alive.
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
