import type { AccountStore } from "../../contract";
import type { Db } from "../_db";
import { createAccountQueries } from "./accounts";
import { createApiKeyQueries } from "./api-keys";

/** The `AccountStore` part of the PostgreSQL adapter: accounts and their API keys. */
export function createPostgresAccountStore(db: Db): AccountStore {
  return { ...createAccountQueries(db), ...createApiKeyQueries(db) };
}
