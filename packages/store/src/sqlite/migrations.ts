import { firstSchema } from "../shared/first-schema";
import type { Migration } from "../shared/migration";
import { laterSteps, SQLITE_DIALECT } from "../shared/migration-steps";

const first = firstSchema(SQLITE_DIALECT);

export type { Migration } from "../shared/migration";

/**
 * The schema history. Append new entries; never edit one that has shipped. All times are
 * Unix milliseconds (INTEGER); JSON columns hold text.
 */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: "initial schema", sql: first.initial },
  { version: 2, name: "timer activity", sql: first.timerActivity },
  { version: 3, name: "webhooks", sql: first.webhooks },
  { version: 4, name: "timer viewers", sql: first.timerViewers },
  ...laterSteps(SQLITE_DIALECT, 5, {
    name: "cache generations",
    sql: `
-- Bumped in the transaction of every change a process may have cached (readGenerations).
CREATE TABLE generations (name TEXT PRIMARY KEY, value INTEGER NOT NULL) STRICT;
INSERT INTO generations (name, value) VALUES ('auth', 0), ('timers', 0);
`,
  }),
];
