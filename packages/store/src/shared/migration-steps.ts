import type { Migration } from "./migration";

/**
 * The words the two schemas spell differently. Both adapters' histories take the same steps
 * after their first schema; each step is written once here and spelled per database, producing
 * exactly the SQL each adapter shipped (a test pins every migration's text).
 */
export interface SqlDialect {
  postgres: boolean;
  /** Ids, names, hashes: compared byte by byte (PostgreSQL: the "C" collation). */
  key: string;
  text: string;
  int: string;
  /** Unix ms and counters. */
  big: string;
  /** Closes a CREATE TABLE with a rowid (SQLite: STRICT). */
  table: string;
  /** Closes a CREATE TABLE stored by its primary key (SQLite: STRICT, WITHOUT ROWID). */
  keyed: string;
  /** Closes a table of counters updated in place (PostgreSQL: room on each page, for HOT). */
  counters: string;
  /** Closes the outbox's deliveries table (updated on every attempt). */
  outbox: string;
  /** A JSON object kept as written. */
  json: string;
  /** A JSON object whose key order means nothing. */
  jsonb: string;
  /** A list of strings. */
  list: string;
  bool: string;
  real: string;
  /** SQLite's comment on a JSON column (it has no JSON type). */
  jsonNote: string;
  /** SQLite's comment on a list column. */
  listNote: string;
  /** Raw bytes (an uploaded file). */
  bytes: string;
}

/** SQLite's spelling: STRICT tables, INTEGER for every whole number. */
export const SQLITE_DIALECT: SqlDialect = {
  postgres: false,
  key: "TEXT",
  text: "TEXT",
  int: "INTEGER",
  big: "INTEGER",
  table: ") STRICT",
  keyed: ") STRICT, WITHOUT ROWID",
  counters: ") STRICT, WITHOUT ROWID",
  outbox: ") STRICT",
  json: "TEXT",
  jsonb: "TEXT",
  list: "TEXT",
  bool: "INTEGER",
  real: "REAL",
  jsonNote: " -- JSON object",
  listNote: " -- JSON array",
  bytes: "BLOB",
};

/** PostgreSQL's spelling (why these types: the header of postgres/migrations.ts). */
export const POSTGRES_DIALECT: SqlDialect = {
  postgres: true,
  key: 'text COLLATE "C"',
  text: "text",
  int: "integer",
  big: "bigint",
  table: ")",
  keyed: ")",
  counters: ") WITH (fillfactor = 50)",
  outbox: ") WITH (fillfactor = 80)",
  json: "json",
  jsonb: "jsonb",
  list: "text[]",
  bool: "boolean",
  real: "double precision",
  jsonNote: "",
  listNote: "",
  bytes: "bytea",
};

/** A step of both histories, without its version (each adapter numbers its own). */
export type MigrationStep = Omit<Migration, "version">;

/** The steps both histories share, in `d`'s spelling. */
export function sharedSteps(d: SqlDialect) {
  return {
    keyRolling: {
      name: "key rolling",
      sql: `
-- A rolled key keeps working until expires_at, beside its replacement; NULL: no end.
ALTER TABLE api_keys ADD COLUMN expires_at ${d.big};
`,
    },
    webhookRetention: {
      name: "webhook retention",
      sql: `
-- The retention purge walks settled deliveries by age, and finds an event's deliveries by it.
CREATE INDEX webhook_deliveries_settled ON webhook_deliveries (updated_at)
  WHERE status <> 'pending';
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);
`,
    },
    dashboardUsers: {
      name: "dashboard users",
      sql: `
-- People who sign in to an account's dashboard. Email is lowercase and unique store-wide.
-- The owner's note of where a key is used (the dashboard asks for one); NULL: none.
ALTER TABLE api_keys ADD COLUMN name ${d.text};

CREATE TABLE users (
  id ${d.key} PRIMARY KEY,
  account_id ${d.key} NOT NULL REFERENCES accounts (id),
  email ${d.key} NOT NULL UNIQUE,
  role ${d.text} NOT NULL CHECK (role IN ('owner', 'member')),
  password_hash ${d.text},
  created_at ${d.big} NOT NULL,
  updated_at ${d.big} NOT NULL
${d.table};
CREATE INDEX users_account ON users (account_id, created_at);

-- One-time set-password links, by the SHA-256 of their token; used_at set once.
CREATE TABLE user_password_links (
  token_hash ${d.key} PRIMARY KEY,
  user_id ${d.key} NOT NULL REFERENCES users (id),
  created_at ${d.big} NOT NULL,
  expires_at ${d.big} NOT NULL,
  used_at ${d.big}
${d.keyed};
CREATE INDEX user_password_links_user ON user_password_links (user_id);

-- Signed-in browsers, by the SHA-256 of their cookie value.
CREATE TABLE user_sessions (
  id_hash ${d.key} PRIMARY KEY,
  user_id ${d.key} NOT NULL REFERENCES users (id),
  created_at ${d.big} NOT NULL,
  expires_at ${d.big} NOT NULL
${d.keyed};
CREATE INDEX user_sessions_user ON user_sessions (user_id);

-- Sign-in attempts per key (an email) in fixed windows.
CREATE TABLE sign_in_attempts (
  key ${d.key} NOT NULL,
  window_start ${d.big} NOT NULL,
  attempts ${d.int} NOT NULL,
  PRIMARY KEY (key, window_start)
${d.keyed};
`,
    },
    renderAnalytics: {
      name: "render analytics and viewer events",
      sql: `
-- Public views counted per timer, UTC hour, kind and client family (written in batches).
CREATE TABLE render_views (
  timer_id ${d.key} NOT NULL,
  hour ${d.big} NOT NULL,
  kind ${d.text} NOT NULL,
  client ${d.text} NOT NULL,
  account_id ${d.key} NOT NULL,
  environment ${d.text} NOT NULL,
  views ${d.big} NOT NULL,
  PRIMARY KEY (timer_id, hour, kind, client)
${d.keyed};
CREATE INDEX render_views_account ON render_views (account_id, environment, hour);

-- One row per distinct viewer of a timer per UTC day (a day-salted hash, never an address);
-- hours is a bit set of the hours of the day it was seen in. No second index: it would double
-- the cost of a new viewer; an account's rows are found through its timers' ids.
CREATE TABLE render_viewers (
  timer_id ${d.key} NOT NULL,
  day ${d.big} NOT NULL,
  viewer ${d.key} NOT NULL,
  account_id ${d.key} NOT NULL,
  environment ${d.text} NOT NULL,
  hours ${d.int} NOT NULL,
  PRIMARY KEY (timer_id, day, viewer)
${d.keyed};

-- The salt of each UTC day's viewer hashes; purged once the day is over.
CREATE TABLE analytics_salts (day ${d.big} PRIMARY KEY, salt ${d.text} NOT NULL${d.table};

-- Recipients tracked for viewer.started / viewer.ended, once per (timer, viewer).
CREATE TABLE viewer_events (
  timer_id ${d.key} NOT NULL,
  viewer ${d.key} NOT NULL,
  account_id ${d.key} NOT NULL,
  environment ${d.text} NOT NULL,
  recipient ${d.text},
  context ${d.text} NOT NULL,
  started_at ${d.big} NOT NULL,
  end_check_at ${d.big}, -- NULL: no viewer.ended owed (fired, or no rule wanted it)
  PRIMARY KEY (timer_id, viewer)
${d.keyed};
CREATE INDEX viewer_events_due ON viewer_events (end_check_at) WHERE end_check_at IS NOT NULL;
CREATE INDEX viewer_events_started ON viewer_events (started_at) WHERE end_check_at IS NULL;

-- Viewers tracked per timer per UTC day: the cap's counter.
CREATE TABLE viewer_event_days (
  timer_id ${d.key} NOT NULL,
  day ${d.big} NOT NULL,
  count ${d.int} NOT NULL,
  PRIMARY KEY (timer_id, day)
${d.keyed};
`,
    },
    requestLogWithoutRequestIndex: {
      name: "request log without its request-id index",
      sql: `
-- Written on every request, and the widest of the log's indexes. A lookup by request id now
-- passes the id's own time (request ids are UUIDv7) and walks request_log_page instead.
DROP INDEX request_log_request;
`,
    },
    savedLooks: {
      name: "saved looks",
      sql: `
-- Looks saved under a name (brand kits), per account and environment; look is JSON text.
CREATE TABLE saved_looks (
  id ${d.key} PRIMARY KEY,
  account_id ${d.key} NOT NULL REFERENCES accounts (id),
  environment ${d.text} NOT NULL,
  name ${d.key} NOT NULL,
  look ${d.text} NOT NULL,
  created_at ${d.big} NOT NULL,
  UNIQUE (account_id, environment, name)
${d.table};
`,
    },
    renderAnalyticsBySource: {
      name: "render analytics by request source",
      sql: `
-- Who fetched the views (docs/analytics.md): views counts every source; proxy_views and
-- prefetch_views the part that image proxies and privacy prefetches fetched.
ALTER TABLE render_views ADD COLUMN proxy_views ${d.big} NOT NULL DEFAULT 0;
ALTER TABLE render_views ADD COLUMN prefetch_views ${d.big} NOT NULL DEFAULT 0;
-- The hours of the day a human open saw the viewer; rows counted before this read as human.
ALTER TABLE render_viewers ADD COLUMN human_hours ${d.int} NOT NULL DEFAULT 0;
UPDATE render_viewers SET human_hours = hours;
`,
    },
    uploadedAssets: {
      name: "uploaded fonts and images",
      sql: `
-- Files an account uploads for its looks (fonts, background images), per environment. A file
-- never changes: it is created and deleted, and its deletion moves the assets generation.
CREATE TABLE assets (
  id ${d.key} PRIMARY KEY,
  account_id ${d.key} NOT NULL REFERENCES accounts (id),
  environment ${d.text} NOT NULL,
  kind ${d.text} NOT NULL,
  name ${d.text} NOT NULL,
  format ${d.text} NOT NULL,
  byte_size ${d.big} NOT NULL,
  sha256 ${d.text} NOT NULL,
  width ${d.int},
  height ${d.int},
  font_family ${d.text},
  data ${d.bytes} NOT NULL,
  created_at ${d.big} NOT NULL
${d.table};
CREATE INDEX assets_page ON assets (account_id, environment, created_at, id);
${d.postgres ? "INSERT INTO generations (name, shard) VALUES ('assets', 0);" : "INSERT INTO generations (name, value) VALUES ('assets', 0);"}
`,
    },
    clicksAndCampaigns: {
      name: "clicks and campaigns",
      sql: `
-- Clicks on a timer's link (/t/{id}/go) per UTC hour and the timer's state at the click
-- (before, running, ended), of them those of proxies and prefetches (written in batches).
CREATE TABLE render_clicks (
  timer_id ${d.key} NOT NULL,
  hour ${d.big} NOT NULL,
  state ${d.text} NOT NULL,
  account_id ${d.key} NOT NULL,
  environment ${d.text} NOT NULL,
  clicks ${d.big} NOT NULL,
  proxy_clicks ${d.big} NOT NULL,
  prefetch_clicks ${d.big} NOT NULL,
  PRIMARY KEY (timer_id, hour, state)
${d.counters};

-- Views and clicks per campaign label (c or utm_campaign) per timer per UTC day. At most 50
-- labels per timer and day have a row; later ones are added to the label 'other'.
CREATE TABLE campaign_counts (
  timer_id ${d.key} NOT NULL,
  day ${d.big} NOT NULL,
  campaign ${d.key} NOT NULL,
  account_id ${d.key} NOT NULL,
  environment ${d.text} NOT NULL,
  views ${d.big} NOT NULL,
  proxy_views ${d.big} NOT NULL,
  prefetch_views ${d.big} NOT NULL,
  clicks ${d.big} NOT NULL,
  proxy_clicks ${d.big} NOT NULL,
  prefetch_clicks ${d.big} NOT NULL,
  PRIMARY KEY (timer_id, day, campaign)
${d.counters};
`,
    },
  } satisfies Record<string, MigrationStep>;
}

/**
 * Every step after an adapter's first schema, numbered on from `from` (PostgreSQL's first schema
 * already holds what SQLite added in versions 2 to 4): the shared steps in `d`'s spelling, with
 * the adapter's own cache-generations step (the two store generations differently) in its place.
 */
export function laterSteps(
  d: SqlDialect,
  from: number,
  cacheGenerations: MigrationStep,
): Migration[] {
  const s = sharedSteps(d);
  return [
    s.keyRolling,
    s.webhookRetention,
    cacheGenerations,
    s.dashboardUsers,
    s.renderAnalytics,
    s.requestLogWithoutRequestIndex,
    s.savedLooks,
    s.renderAnalyticsBySource,
    s.uploadedAssets,
    s.clicksAndCampaigns,
  ].map((step, i) => ({ version: from + i, ...step }));
}
