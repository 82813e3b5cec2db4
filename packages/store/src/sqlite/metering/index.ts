import type { MeteringStore } from "../../contract";
import type { GroupWrite } from "../_group-commit";
import type { SqliteDatabase } from "../database";
import { createMeteringQueries } from "./counters";
import { createRequestLogQueries } from "./request-log";

/** The `MeteringStore` part of the SQLite adapter: rate windows, usage and the request log. */
export function createSqliteMeteringStore(db: SqliteDatabase, write: GroupWrite): MeteringStore {
  return { ...createMeteringQueries(db, write), ...createRequestLogQueries(db, write) };
}
