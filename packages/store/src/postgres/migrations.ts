import { firstSchema } from "../shared/first-schema";
import type { Migration } from "../shared/migration";
import { laterSteps, POSTGRES_DIALECT } from "../shared/migration-steps";

const first = firstSchema(POSTGRES_DIALECT);

/**
 * The PostgreSQL schema history (its own numbering: the SQLite history is not replayed here).
 * Append new entries; never edit one that has shipped. Each runs in its own transaction.
 *
 * Types, and why:
 * - Instants are `bigint` Unix milliseconds, not `timestamptz`. The contract passes and returns
 *   Unix ms; bigint keeps every value exact through the round trip (no float epoch
 *   conversion), compares as cheaply as an integer in keyset cursors (`(created_at, id) < ...`),
 *   and holds the schedule's non-instant markers (`next_fire_at = 0` means "recompute now").
 *   Read them as times with `to_timestamp(created_at / 1000.0)`.
 * - Ids, names and bucket keys are `text COLLATE "C"`: the contract orders ties by binary id
 *   comparison, whatever the database's default collation, and "C" compares by memcmp.
 * - A timer's `data` and an activity entry's `changes` are `json`, not `jsonb`: the store never
 *   looks inside them, and `json` keeps the text as written, so the key order of a client's
 *   metadata and look survives a round trip exactly as on SQLite (jsonb would reorder keys).
 *   Stored responses' headers are `jsonb` (a flat map whose order means nothing).
 * - Lists of scopes and event types are `text[]`, tested with `= ANY (...)`.
 * - Counters (usage, rate windows) are `bigint`, updated in place by row-level upserts; their
 *   tables leave room on each page (fillfactor) so the updates stay HOT (no index writes).
 * - A webhook payload is `text`: it is signed and sent byte for byte.
 */
export const POSTGRES_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "initial schema",
    sql: first.initial + first.timerActivity + first.webhooks + first.timerViewers,
  },
  ...laterSteps(POSTGRES_DIALECT, 2, {
    name: "cache generations",
    sql: `
-- Bumped in the statement of every change a process may have cached (readGenerations). The
-- timers generation is spread over 16 rows chosen by account, so timer changes of unrelated
-- accounts never wait for one row lock; a reader sums the rows.
CREATE TABLE generations (
  name text NOT NULL,
  shard integer NOT NULL,
  value bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (name, shard)
);
INSERT INTO generations (name, shard) VALUES ('auth', 0);
INSERT INTO generations (name, shard) SELECT 'timers', s FROM generate_series(0, 15) AS s;
`,
  }),
];
