import type { Migration } from "../shared/migration";
import { SQLITE_DIALECT, sharedSteps } from "../shared/migration-steps";

export type { Migration } from "../shared/migration";

const shared = sharedSteps(SQLITE_DIALECT);

/**
 * The schema history. Append new entries; never edit one that has shipped. All times are
 * Unix milliseconds (INTEGER); JSON columns hold text.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "initial schema",
    sql: `
CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  plan TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('active', 'suspended')),
  created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'production')),
  prefix TEXT NOT NULL,
  hash TEXT NOT NULL,
  scopes TEXT NOT NULL, -- JSON array
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
) STRICT;
-- Every API request authenticates by hash.
CREATE UNIQUE INDEX api_keys_hash ON api_keys (hash);
CREATE INDEX api_keys_prefix ON api_keys (prefix);
CREATE INDEX api_keys_account ON api_keys (account_id, environment, created_at);

CREATE TABLE timers (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'production')),
  name TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('fixed', 'duration', 'recurring', 'personalized')),
  status TEXT NOT NULL CHECK (status IN ('draft', 'published', 'archived')),
  revision INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  published_at INTEGER,
  deleted_at INTEGER, -- soft delete: invisible to get and list
  data TEXT NOT NULL -- JSON object
) STRICT;
-- Keyset paging walks one of these in either direction; type and status are residual
-- filters. Partial, so deleted rows cost the list nothing.
CREATE INDEX timers_by_created ON timers (account_id, environment, created_at, id)
  WHERE deleted_at IS NULL;
CREATE INDEX timers_by_updated ON timers (account_id, environment, updated_at, id)
  WHERE deleted_at IS NULL;

-- A plain rowid table: responses can be large, which WITHOUT ROWID handles poorly.
CREATE TABLE idempotency_keys (
  account_id TEXT NOT NULL,
  environment TEXT NOT NULL,
  key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  response_status INTEGER NOT NULL,
  response_headers TEXT NOT NULL, -- JSON object
  response_body TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (account_id, environment, key)
) STRICT;
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);

CREATE TABLE usage_counters (
  account_id TEXT NOT NULL,
  environment TEXT NOT NULL,
  cycle_id TEXT NOT NULL,
  metric TEXT NOT NULL,
  total INTEGER NOT NULL,
  PRIMARY KEY (account_id, environment, cycle_id, metric)
) STRICT, WITHOUT ROWID;

CREATE TABLE rate_windows (
  bucket TEXT NOT NULL,
  window_start INTEGER NOT NULL,
  hits INTEGER NOT NULL,
  PRIMARY KEY (bucket, window_start)
) STRICT, WITHOUT ROWID;
CREATE INDEX rate_windows_start ON rate_windows (window_start);

-- Append-only and written on every request: no primary key index to maintain on id.
CREATE TABLE request_log (
  id TEXT NOT NULL,
  account_id TEXT NOT NULL,
  environment TEXT NOT NULL,
  key_id TEXT NOT NULL,
  key_prefix TEXT NOT NULL,
  request_id TEXT NOT NULL,
  method TEXT NOT NULL,
  route TEXT NOT NULL,
  status INTEGER NOT NULL,
  error_code TEXT,
  duration_ms REAL NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX request_log_page ON request_log (account_id, environment, created_at, id);
-- Looking one request up by its id must not scan the account's whole log; the trailing
-- (created_at, id) keeps its rows in page order, so the planner has no sort to avoid.
CREATE INDEX request_log_request ON request_log (account_id, environment, request_id, created_at, id);
CREATE INDEX request_log_created ON request_log (created_at);

CREATE TABLE secrets (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;
`,
  },
  {
    version: 2,
    name: "timer activity",
    sql: `
-- Every change and control action on a timer, with who (key id and prefix, never the
-- secret), what (fields before and after) and the request id.
CREATE TABLE timer_activity (
  id TEXT PRIMARY KEY,
  timer_id TEXT NOT NULL,
  account_id TEXT NOT NULL,
  environment TEXT NOT NULL,
  action TEXT NOT NULL,
  revision INTEGER NOT NULL,
  key_id TEXT,
  key_prefix TEXT,
  request_id TEXT,
  changes TEXT NOT NULL, -- JSON object
  created_at INTEGER NOT NULL
) STRICT;
-- Changes to one timer are serialised by its revision, which orders them totally (two
-- changes in the same millisecond still come out in order).
CREATE UNIQUE INDEX timer_activity_page
  ON timer_activity (account_id, environment, timer_id, revision);
`,
  },
  {
    version: 3,
    name: "webhooks",
    sql: `
-- Registered receivers. The signing secret is kept in clear: HMAC signing needs it.
CREATE TABLE webhook_destinations (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id),
  environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'production')),
  url TEXT NOT NULL,
  description TEXT,
  events TEXT NOT NULL, -- JSON array of change event types delivered without a rule
  enabled INTEGER NOT NULL,
  disabled_reason TEXT,
  secret TEXT NOT NULL,
  previous_secret TEXT,
  previous_secret_expires_at INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  deleted_at INTEGER -- soft delete: deliveries keep pointing at it
) STRICT;
CREATE INDEX webhook_destinations_page ON webhook_destinations (account_id, environment, created_at, id)
  WHERE deleted_at IS NULL;

-- Rules on timers. Rules with time-based events carry their schedule: every instant up to
-- fired_through has fired; next_fire_at is when to look again (0: recompute now, NULL: not
-- until the timer changes). A timer change sets next_fire_at to 0 in its own transaction.
CREATE TABLE webhook_rules (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  environment TEXT NOT NULL,
  timer_id TEXT NOT NULL,
  destination_id TEXT NOT NULL,
  events TEXT NOT NULL, -- JSON array
  offset_seconds INTEGER,
  time_based INTEGER NOT NULL,
  fired_through INTEGER NOT NULL,
  next_fire_at INTEGER,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX webhook_rules_timer ON webhook_rules (account_id, environment, timer_id, created_at, id);
CREATE INDEX webhook_rules_destination ON webhook_rules (destination_id);
CREATE INDEX webhook_rules_due ON webhook_rules (next_fire_at) WHERE next_fire_at IS NOT NULL;

-- The outbox: an event is written in the transaction of the change that caused it, with one
-- delivery per destination it goes to.
CREATE TABLE webhook_events (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  environment TEXT NOT NULL,
  timer_id TEXT NOT NULL,
  type TEXT NOT NULL,
  payload TEXT NOT NULL, -- the exact JSON body sent
  occurred_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  environment TEXT NOT NULL,
  event_id TEXT NOT NULL REFERENCES webhook_events (id),
  destination_id TEXT NOT NULL,
  rule_id TEXT,
  status TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempt_count INTEGER NOT NULL,
  next_attempt_at INTEGER, -- set while pending
  next_trigger TEXT NOT NULL, -- 'scheduled' or 'manual': how the next attempt is recorded
  lease_until INTEGER,
  lease_worker TEXT,
  replay_of TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;
CREATE INDEX webhook_deliveries_page ON webhook_deliveries (account_id, environment, created_at, id);
CREATE INDEX webhook_deliveries_status
  ON webhook_deliveries (account_id, environment, status, created_at, id);
-- The workers' claim walks this: only pending rows, in due order.
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at)
  WHERE status = 'pending';

CREATE TABLE webhook_attempts (
  delivery_id TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  attempt_trigger TEXT NOT NULL,
  started_at INTEGER NOT NULL,
  duration_ms REAL NOT NULL,
  response_status INTEGER,
  response_body TEXT,
  error TEXT,
  PRIMARY KEY (delivery_id, attempt)
) STRICT, WITHOUT ROWID;
`,
  },
  {
    version: 4,
    name: "timer viewers",
    sql: `
-- The first view of each recipient (email image URL) or browser (hosted-page cookie): a
-- duration (evergreen) timer counts from it. One row per (timer, viewer), written once.
CREATE TABLE timer_viewers (
  timer_id TEXT NOT NULL,
  viewer TEXT NOT NULL,
  first_seen_at INTEGER NOT NULL,
  PRIMARY KEY (timer_id, viewer)
) STRICT, WITHOUT ROWID;
`,
  },
  { version: 5, ...shared.keyRolling },
  { version: 6, ...shared.webhookRetention },
  {
    version: 7,
    name: "cache generations",
    sql: `
-- Bumped in the transaction of every change a process may have cached (readGenerations).
CREATE TABLE generations (name TEXT PRIMARY KEY, value INTEGER NOT NULL) STRICT;
INSERT INTO generations (name, value) VALUES ('auth', 0), ('timers', 0);
`,
  },
  { version: 8, ...shared.dashboardUsers },
  { version: 9, ...shared.renderAnalytics },
  { version: 10, ...shared.requestLogWithoutRequestIndex },
  { version: 11, ...shared.savedLooks },
];
