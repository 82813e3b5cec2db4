import type { Statement } from "./_statements";
import type { PgPool, PgPoolClient, PgQueryResult } from "./pool";

/** Runs one statement: text sent unnamed, or a `named` one sent by name when that is on. */
// biome-ignore lint/suspicious/noExplicitAny: rows are narrowed by each caller.
export type Query = <R = any>(
  statement: Statement,
  values?: unknown[],
) => Promise<PgQueryResult<R>>;

/** What every part of the adapter runs its SQL through. */
export interface Db {
  /** One statement on any pooled connection, in its own (implicit) transaction. */
  query: Query;
  /**
   * `fn` inside BEGIN ... COMMIT on one connection. Serialization failures and deadlocks roll
   * back and run `fn` again (a bounded number of times), so `fn` must be safe to repeat: it
   * re-reads what it needs, and the callbacks it calls are pure. Return `rollback(value)` to
   * answer `value` but write nothing.
   */
  transaction<T>(fn: (query: Query) => Promise<T | Rollback<T>>): Promise<T>;
}

/** A transaction's answer whose writes must be undone (see `Db.transaction`). */
export class Rollback<T> {
  constructor(readonly value: T) {}
}

/** Answers `value` and rolls the transaction back. */
export function rollback<T>(value: T): Rollback<T> {
  return new Rollback(value);
}

/** How many times a transaction runs before its serialization failure reaches the caller. */
const ATTEMPTS = 5;

/** serialization_failure and deadlock_detected: the transaction may simply run again. */
const RETRYABLE = new Set(["40001", "40P01"]);

/**
 * Sends `statement` on `target`. A named statement goes as node-postgres' `{ name, text,
 * values }` when `prepared` is on (parsed and planned once per connection), else as its text,
 * exactly like every other statement.
 */
function send<R>(
  target: PgPool | PgPoolClient,
  prepared: boolean,
  statement: Statement,
  values: unknown[] | undefined,
): Promise<PgQueryResult<R>> {
  if (typeof statement === "string") return target.query<R>(statement, values);
  if (!prepared) return target.query<R>(statement.text, values);
  return target.query<R>({ name: statement.name, text: statement.text, values: values ?? [] });
}

/**
 * The adapter's `Db` over a pool that becomes usable once `ready` resolves (the driver is
 * loaded and the schema checked): every statement waits for it, so the store can be handed out
 * synchronously and a failed start rejects every call with the same error. With
 * `preparedStatements` off, named statements are sent unnamed like the rest.
 */
export function createDb(
  pool: () => PgPool,
  ready: Promise<void>,
  options: { preparedStatements: boolean },
): Db {
  const prepared = options.preparedStatements;
  let isReady = false;
  const gate = async () => {
    if (!isReady) {
      await ready;
      isReady = true;
    }
    return pool();
  };

  return {
    query: async (statement, values) => send(await gate(), prepared, statement, values),
    async transaction<T>(fn: (query: Query) => Promise<T | Rollback<T>>): Promise<T> {
      const p = await gate();
      for (let attempt = 1; ; attempt++) {
        const client = await p.connect();
        let broken: unknown;
        try {
          await client.query("BEGIN");
          const outcome = await fn((statement, values) =>
            send(client, prepared, statement, values),
          );
          if (outcome instanceof Rollback) {
            await client.query("ROLLBACK");
            return outcome.value;
          }
          await client.query("COMMIT");
          return outcome;
        } catch (error) {
          broken = await rollbackQuietly(client);
          const code = (error as { code?: unknown } | null)?.code;
          if (attempt < ATTEMPTS && typeof code === "string" && RETRYABLE.has(code)) continue;
          throw error;
        } finally {
          // A connection whose ROLLBACK failed is in an unknown state: destroy it.
          client.release(broken instanceof Error ? broken : undefined);
        }
      }
    },
  };
}

async function rollbackQuietly(client: PgPoolClient): Promise<unknown> {
  try {
    await client.query("ROLLBACK");
    return undefined;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}
