import type { MeteringStore } from "../../contract";
import type { Db } from "../_db";
import { createMeteringQueries } from "./counters";
import { createRequestLogQueries } from "./request-log";

/** The `MeteringStore` part of the PostgreSQL adapter: rate windows, usage and the request log. */
export function createPostgresMeteringStore(db: Db): MeteringStore {
  return { ...createMeteringQueries(db), ...createRequestLogQueries(db) };
}
