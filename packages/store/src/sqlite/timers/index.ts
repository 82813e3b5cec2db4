import type { TimerStore } from "../../contract";
import type { Generations } from "../_generations";
import type { GroupWrite } from "../_group-commit";
import type { SqliteDatabase } from "../database";
import { createActivityQueries } from "./activity";
import { createTimerQueries } from "./timers";

/** The `TimerStore` part of the SQLite adapter: timers, their changes and activity. */
export function createSqliteTimerStore(
  db: SqliteDatabase,
  write: GroupWrite,
  generations: Generations,
): TimerStore {
  return { ...createTimerQueries(db, write, generations), ...createActivityQueries(db) };
}
