import type { Migration } from "../shared/migration";
import { POSTGRES_DIALECT, sharedSteps } from "../shared/migration-steps";

const shared = sharedSteps(POSTGRES_DIALECT);

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
    sql: `
CREATE TABLE accounts (
  id text COLLATE "C" PRIMARY KEY,
  name text COLLATE "C" NOT NULL UNIQUE,
  plan text NOT NULL,
  status text NOT NULL CHECK (status IN ('active', 'suspended')),
  created_at bigint NOT NULL
);

CREATE TABLE api_keys (
  id text COLLATE "C" PRIMARY KEY,
  account_id text COLLATE "C" NOT NULL REFERENCES accounts (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  prefix text COLLATE "C" NOT NULL,
  hash text COLLATE "C" NOT NULL,
  scopes text[] NOT NULL,
  created_at bigint NOT NULL,
  revoked_at bigint
);
-- Every API request authenticates by hash.
CREATE UNIQUE INDEX api_keys_hash ON api_keys (hash);
CREATE INDEX api_keys_prefix ON api_keys (prefix);
CREATE INDEX api_keys_account ON api_keys (account_id, environment, created_at);

CREATE TABLE timers (
  id text COLLATE "C" PRIMARY KEY,
  account_id text COLLATE "C" NOT NULL REFERENCES accounts (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  name text NOT NULL,
  type text NOT NULL CHECK (type IN ('fixed', 'duration', 'recurring', 'personalized')),
  status text NOT NULL CHECK (status IN ('draft', 'published', 'archived')),
  revision integer NOT NULL,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  published_at bigint,
  deleted_at bigint, -- soft delete: invisible to get and list
  data json NOT NULL
);
-- Keyset paging walks one of these in either direction; type and status are residual
-- filters. Partial, so deleted rows cost the list nothing.
CREATE INDEX timers_by_created ON timers (account_id, environment, created_at, id)
  WHERE deleted_at IS NULL;
CREATE INDEX timers_by_updated ON timers (account_id, environment, updated_at, id)
  WHERE deleted_at IS NULL;

-- A create inserts its key's row first (a placeholder), so a concurrent request with the same
-- key waits on the primary key until the first commits, then replays it.
CREATE TABLE idempotency_keys (
  account_id text COLLATE "C" NOT NULL,
  environment text NOT NULL,
  key text COLLATE "C" NOT NULL,
  fingerprint text NOT NULL,
  response_status integer NOT NULL,
  response_headers jsonb NOT NULL,
  response_body text NOT NULL,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  PRIMARY KEY (account_id, environment, key)
);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);

CREATE TABLE usage_counters (
  account_id text COLLATE "C" NOT NULL,
  environment text NOT NULL,
  cycle_id text COLLATE "C" NOT NULL,
  metric text COLLATE "C" NOT NULL,
  total bigint NOT NULL,
  PRIMARY KEY (account_id, environment, cycle_id, metric)
) WITH (fillfactor = 50);

CREATE TABLE rate_windows (
  bucket text COLLATE "C" NOT NULL,
  window_start bigint NOT NULL,
  hits bigint NOT NULL,
  PRIMARY KEY (bucket, window_start)
) WITH (fillfactor = 50);
CREATE INDEX rate_windows_start ON rate_windows (window_start);

-- Append-only and written on every request: no primary key index to maintain on id.
CREATE TABLE request_log (
  id text COLLATE "C" NOT NULL,
  account_id text COLLATE "C" NOT NULL,
  environment text NOT NULL,
  key_id text COLLATE "C" NOT NULL,
  key_prefix text COLLATE "C" NOT NULL,
  request_id text COLLATE "C" NOT NULL,
  method text NOT NULL,
  route text NOT NULL,
  status integer NOT NULL,
  error_code text,
  duration_ms double precision NOT NULL,
  created_at bigint NOT NULL
);
CREATE INDEX request_log_page ON request_log (account_id, environment, created_at, id);
CREATE INDEX request_log_request
  ON request_log (account_id, environment, request_id, created_at, id);
CREATE INDEX request_log_created ON request_log (created_at);

CREATE TABLE secrets (
  name text COLLATE "C" PRIMARY KEY,
  value text NOT NULL
);

-- Every change and control action on a timer; its revision orders one timer's entries.
CREATE TABLE timer_activity (
  id text COLLATE "C" PRIMARY KEY,
  timer_id text COLLATE "C" NOT NULL,
  account_id text COLLATE "C" NOT NULL,
  environment text NOT NULL,
  action text NOT NULL,
  revision integer NOT NULL,
  key_id text,
  key_prefix text,
  request_id text,
  changes json NOT NULL,
  created_at bigint NOT NULL
);
CREATE UNIQUE INDEX timer_activity_page
  ON timer_activity (account_id, environment, timer_id, revision);

CREATE TABLE webhook_destinations (
  id text COLLATE "C" PRIMARY KEY,
  account_id text COLLATE "C" NOT NULL REFERENCES accounts (id),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  url text NOT NULL,
  description text,
  events text[] NOT NULL, -- change event types delivered without a rule
  enabled boolean NOT NULL,
  disabled_reason text,
  secret text NOT NULL, -- in clear: HMAC signing needs it
  previous_secret text,
  previous_secret_expires_at bigint,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  deleted_at bigint -- soft delete: deliveries keep pointing at it
);
CREATE INDEX webhook_destinations_page ON webhook_destinations (account_id, environment, created_at, id)
  WHERE deleted_at IS NULL;

-- Rules on timers. Time-based rules carry their schedule: every instant up to fired_through
-- has fired; next_fire_at is when to look again (0: recompute now, NULL: not until the timer
-- changes). A timer change sets next_fire_at to 0 in its own statement.
CREATE TABLE webhook_rules (
  id text COLLATE "C" PRIMARY KEY,
  account_id text COLLATE "C" NOT NULL,
  environment text NOT NULL,
  timer_id text COLLATE "C" NOT NULL,
  destination_id text COLLATE "C" NOT NULL,
  events text[] NOT NULL,
  offset_seconds integer,
  time_based boolean NOT NULL,
  fired_through bigint NOT NULL,
  next_fire_at bigint,
  created_at bigint NOT NULL
);
CREATE INDEX webhook_rules_timer ON webhook_rules (account_id, environment, timer_id, created_at, id);
CREATE INDEX webhook_rules_destination ON webhook_rules (destination_id);
CREATE INDEX webhook_rules_due ON webhook_rules (next_fire_at, id) WHERE next_fire_at IS NOT NULL;

-- The outbox: an event is written in the transaction of the change that caused it, with one
-- delivery per destination it goes to.
CREATE TABLE webhook_events (
  id text COLLATE "C" PRIMARY KEY,
  account_id text COLLATE "C" NOT NULL,
  environment text NOT NULL,
  timer_id text COLLATE "C" NOT NULL,
  type text NOT NULL,
  payload text NOT NULL, -- the exact JSON body sent
  occurred_at bigint NOT NULL,
  created_at bigint NOT NULL
);

CREATE TABLE webhook_deliveries (
  id text COLLATE "C" PRIMARY KEY,
  account_id text COLLATE "C" NOT NULL,
  environment text NOT NULL,
  event_id text COLLATE "C" NOT NULL REFERENCES webhook_events (id),
  destination_id text COLLATE "C" NOT NULL,
  rule_id text COLLATE "C",
  status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempt_count integer NOT NULL,
  next_attempt_at bigint, -- set while pending
  next_trigger text NOT NULL, -- 'scheduled' or 'manual': how the next attempt is recorded
  lease_until bigint,
  lease_worker text,
  replay_of text COLLATE "C",
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL
) WITH (fillfactor = 80);
CREATE INDEX webhook_deliveries_page ON webhook_deliveries (account_id, environment, created_at, id);
CREATE INDEX webhook_deliveries_status
  ON webhook_deliveries (account_id, environment, status, created_at, id);
-- The workers' claim walks this: only pending rows, in due order. Settled deliveries leave
-- it, so it stays as small as the backlog however long the history grows.
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at)
  WHERE status = 'pending';

CREATE TABLE webhook_attempts (
  delivery_id text COLLATE "C" NOT NULL,
  attempt integer NOT NULL,
  attempt_trigger text NOT NULL,
  started_at bigint NOT NULL,
  duration_ms double precision NOT NULL,
  response_status integer,
  response_body text,
  error text,
  PRIMARY KEY (delivery_id, attempt)
);

-- The first view of each recipient or browser: a duration (evergreen) timer counts from it.
CREATE TABLE timer_viewers (
  timer_id text COLLATE "C" NOT NULL,
  viewer text COLLATE "C" NOT NULL,
  first_seen_at bigint NOT NULL,
  PRIMARY KEY (timer_id, viewer)
);
`,
  },
  { version: 2, ...shared.keyRolling },
  { version: 3, ...shared.webhookRetention },
  {
    version: 4,
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
  },
  { version: 5, ...shared.dashboardUsers },
  { version: 6, ...shared.renderAnalytics },
  { version: 7, ...shared.requestLogWithoutRequestIndex },
  { version: 8, ...shared.savedLooks },
];
