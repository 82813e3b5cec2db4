import type { AccountStore } from "../../contract";
import type { Generations } from "../_generations";
import type { SqliteDatabase } from "../database";
import { createAccountQueries } from "./accounts";
import { createApiKeyQueries } from "./api-keys";

/** The `AccountStore` part of the SQLite adapter: accounts and their API keys. */
export function createSqliteAccountStore(
  db: SqliteDatabase,
  generations: Generations,
): AccountStore {
  return { ...createAccountQueries(db, generations), ...createApiKeyQueries(db, generations) };
}
