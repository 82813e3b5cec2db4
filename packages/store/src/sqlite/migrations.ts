/** One schema change: applied once, in order, inside its own transaction. */
export interface Migration {
  /** Strictly increasing from 1; never renumber a released migration. */
  version: number;
  name: string;
  sql: string;
}

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
];
