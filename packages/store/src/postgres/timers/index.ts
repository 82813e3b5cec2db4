import type { TimerStore } from "../../contract";
import type { Db } from "../_db";
import { createActivityQueries } from "./activity";
import { createTimerQueries } from "./timers";

/** The `TimerStore` part of the PostgreSQL adapter: timers, their changes and activity. */
export function createPostgresTimerStore(db: Db): TimerStore {
  return { ...createTimerQueries(db), ...createActivityQueries(db) };
}
