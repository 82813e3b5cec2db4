import type { Store } from "../types";
import type { SqliteDatabase } from "./database";

/** Service secrets and purging, over statements prepared once. */
export type HousekeepingQueries = Pick<Store, "getOrCreateSecret" | "purge">;

/** Prepares the secret and purge statements and returns their methods. */
export function createHousekeepingQueries(db: SqliteDatabase): HousekeepingQueries {
  const readSecret = db.prepare("SELECT value FROM secrets WHERE name = ?");
  const insertSecret = db.prepare("INSERT INTO secrets (name, value) VALUES (?, ?)");
  const purgeIdempotency = db.prepare("DELETE FROM idempotency_keys WHERE expires_at <= ?");
  const purgeLog = db.prepare("DELETE FROM request_log WHERE created_at < ?");
  const purgeWindows = db.prepare("DELETE FROM rate_windows WHERE window_start < ?");

  // Under the write lock, so two processes starting together agree on one secret.
  const secretTx = db.transaction((name: string, create: () => string): string => {
    const row = readSecret.get(name) as { value: string } | undefined;
    if (row) return row.value;
    const value = create();
    insertSecret.run(name, value);
    return value;
  });

  const purgeTx = db.transaction((input: Parameters<Store["purge"]>[0]) => {
    purgeIdempotency.run(input.now);
    purgeLog.run(input.request_log_before);
    purgeWindows.run(input.rate_windows_before);
  });

  return {
    async getOrCreateSecret(name, create) {
      return secretTx.immediate(name, create);
    },
    async purge(input) {
      purgeTx.immediate(input);
    },
  };
}
