import type { SqlDialect } from "./migration-steps";

/** The tables of the first schema, each written once in `d`'s spelling. */
function initialTables(d: SqlDialect) {
  return {
    accounts: `CREATE TABLE accounts (
  id ${d.key} PRIMARY KEY,
  name ${d.key} NOT NULL UNIQUE,
  plan ${d.text} NOT NULL,
  status ${d.text} NOT NULL CHECK (status IN ('active', 'suspended')),
  created_at ${d.big} NOT NULL
${d.table};`,
    apiKeys: `CREATE TABLE api_keys (
  id ${d.key} PRIMARY KEY,
  account_id ${d.key} NOT NULL REFERENCES accounts (id),
  environment ${d.text} NOT NULL CHECK (environment IN ('sandbox', 'production')),
  prefix ${d.key} NOT NULL,
  hash ${d.key} NOT NULL,
  scopes ${d.list} NOT NULL,${d.listNote}
  created_at ${d.big} NOT NULL,
  revoked_at ${d.big}
${d.table};`,
    timers: `CREATE TABLE timers (
  id ${d.key} PRIMARY KEY,
  account_id ${d.key} NOT NULL REFERENCES accounts (id),
  environment ${d.text} NOT NULL CHECK (environment IN ('sandbox', 'production')),
  name ${d.text} NOT NULL,
  type ${d.text} NOT NULL CHECK (type IN ('fixed', 'duration', 'recurring', 'personalized')),
  status ${d.text} NOT NULL CHECK (status IN ('draft', 'published', 'archived')),
  revision ${d.int} NOT NULL,
  created_at ${d.big} NOT NULL,
  updated_at ${d.big} NOT NULL,
  published_at ${d.big},
  deleted_at ${d.big}, -- soft delete: invisible to get and list
  data ${d.json} NOT NULL${d.jsonNote}
${d.table};`,
    idempotencyKeys: `CREATE TABLE idempotency_keys (
  account_id ${d.key} NOT NULL,
  environment ${d.text} NOT NULL,
  key ${d.key} NOT NULL,
  fingerprint ${d.text} NOT NULL,
  response_status ${d.int} NOT NULL,
  response_headers ${d.jsonb} NOT NULL,${d.jsonNote}
  response_body ${d.text} NOT NULL,
  created_at ${d.big} NOT NULL,
  expires_at ${d.big} NOT NULL,
  PRIMARY KEY (account_id, environment, key)
${d.table};`,
    usageCounters: `CREATE TABLE usage_counters (
  account_id ${d.key} NOT NULL,
  environment ${d.text} NOT NULL,
  cycle_id ${d.key} NOT NULL,
  metric ${d.key} NOT NULL,
  total ${d.big} NOT NULL,
  PRIMARY KEY (account_id, environment, cycle_id, metric)
${d.counters};`,
    rateWindows: `CREATE TABLE rate_windows (
  bucket ${d.key} NOT NULL,
  window_start ${d.big} NOT NULL,
  hits ${d.big} NOT NULL,
  PRIMARY KEY (bucket, window_start)
${d.counters};`,
    requestLog: `CREATE TABLE request_log (
  id ${d.key} NOT NULL,
  account_id ${d.key} NOT NULL,
  environment ${d.text} NOT NULL,
  key_id ${d.key} NOT NULL,
  key_prefix ${d.key} NOT NULL,
  request_id ${d.key} NOT NULL,
  method ${d.text} NOT NULL,
  route ${d.text} NOT NULL,
  status ${d.int} NOT NULL,
  error_code ${d.text},
  duration_ms ${d.real} NOT NULL,
  created_at ${d.big} NOT NULL
${d.table};`,
    secrets: `CREATE TABLE secrets (
  name ${d.key} PRIMARY KEY,
  value ${d.text} NOT NULL
${d.table};`,
    timerActivity: `CREATE TABLE timer_activity (
  id ${d.key} PRIMARY KEY,
  timer_id ${d.key} NOT NULL,
  account_id ${d.key} NOT NULL,
  environment ${d.text} NOT NULL,
  action ${d.text} NOT NULL,
  revision ${d.int} NOT NULL,
  key_id ${d.text},
  key_prefix ${d.text},
  request_id ${d.text},
  changes ${d.json} NOT NULL,${d.jsonNote}
  created_at ${d.big} NOT NULL
${d.table};`,
    timerViewers: `CREATE TABLE timer_viewers (
  timer_id ${d.key} NOT NULL,
  viewer ${d.key} NOT NULL,
  first_seen_at ${d.big} NOT NULL,
  PRIMARY KEY (timer_id, viewer)
${d.keyed};`,
    webhookDestinations: `CREATE TABLE webhook_destinations (
  id ${d.key} PRIMARY KEY,
  account_id ${d.key} NOT NULL REFERENCES accounts (id),
  environment ${d.text} NOT NULL CHECK (environment IN ('sandbox', 'production')),
  url ${d.text} NOT NULL,
  description ${d.text},
${d.postgres ? "  events text[] NOT NULL, -- change event types delivered without a rule" : "  events TEXT NOT NULL, -- JSON array of change event types delivered without a rule"}
  enabled ${d.bool} NOT NULL,
  disabled_reason ${d.text},
${d.postgres ? "  secret text NOT NULL, -- in clear: HMAC signing needs it" : "  secret TEXT NOT NULL,"}
  previous_secret ${d.text},
  previous_secret_expires_at ${d.big},
  created_at ${d.big} NOT NULL,
  updated_at ${d.big} NOT NULL,
  deleted_at ${d.big} -- soft delete: deliveries keep pointing at it
${d.table};`,
    webhookRules: `CREATE TABLE webhook_rules (
  id ${d.key} PRIMARY KEY,
  account_id ${d.key} NOT NULL,
  environment ${d.text} NOT NULL,
  timer_id ${d.key} NOT NULL,
  destination_id ${d.key} NOT NULL,
  events ${d.list} NOT NULL,${d.listNote}
  offset_seconds ${d.int},
  time_based ${d.bool} NOT NULL,
  fired_through ${d.big} NOT NULL,
  next_fire_at ${d.big},
  created_at ${d.big} NOT NULL
${d.table};`,
    webhookEvents: `CREATE TABLE webhook_events (
  id ${d.key} PRIMARY KEY,
  account_id ${d.key} NOT NULL,
  environment ${d.text} NOT NULL,
  timer_id ${d.key} NOT NULL,
  type ${d.text} NOT NULL,
  payload ${d.text} NOT NULL, -- the exact JSON body sent
  occurred_at ${d.big} NOT NULL,
  created_at ${d.big} NOT NULL
${d.table};`,
    webhookDeliveries: `CREATE TABLE webhook_deliveries (
  id ${d.key} PRIMARY KEY,
  account_id ${d.key} NOT NULL,
  environment ${d.text} NOT NULL,
  event_id ${d.key} NOT NULL REFERENCES webhook_events (id),
  destination_id ${d.key} NOT NULL,
  rule_id ${d.key},
  status ${d.text} NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempt_count ${d.int} NOT NULL,
  next_attempt_at ${d.big}, -- set while pending
  next_trigger ${d.text} NOT NULL, -- 'scheduled' or 'manual': how the next attempt is recorded
  lease_until ${d.big},
  lease_worker ${d.text},
  replay_of ${d.key},
  created_at ${d.big} NOT NULL,
  updated_at ${d.big} NOT NULL
${d.outbox};`,
    webhookAttempts: `CREATE TABLE webhook_attempts (
  delivery_id ${d.key} NOT NULL,
  attempt ${d.int} NOT NULL,
  attempt_trigger ${d.text} NOT NULL,
  started_at ${d.big} NOT NULL,
  duration_ms ${d.real} NOT NULL,
  response_status ${d.int},
  response_body ${d.text},
  error ${d.text},
  PRIMARY KEY (delivery_id, attempt)
${d.keyed};`,
  };
}

/** Index statements of the first schema, the same in both (interpolated into it). */
const INITIAL_INDEXES = {
  apiKeys: `-- Every API request authenticates by hash.
CREATE UNIQUE INDEX api_keys_hash ON api_keys (hash);
CREATE INDEX api_keys_prefix ON api_keys (prefix);
CREATE INDEX api_keys_account ON api_keys (account_id, environment, created_at);
`,
  timers: `-- Keyset paging walks one of these in either direction; type and status are residual
-- filters. Partial, so deleted rows cost the list nothing.
CREATE INDEX timers_by_created ON timers (account_id, environment, created_at, id)
  WHERE deleted_at IS NULL;
CREATE INDEX timers_by_updated ON timers (account_id, environment, updated_at, id)
  WHERE deleted_at IS NULL;
`,
};

/**
 * The first schema, in the four parts SQLite added it in (its versions 1 to 4: the initial
 * tables, timer activity, webhooks, timer viewers); PostgreSQL's version 1 is the four parts
 * in one. Where the two texts differ (comments, an index), `d.postgres` picks; the result is
 * exactly the SQL each adapter released (a test pins it).
 */
export function firstSchema(d: SqlDialect) {
  const tables = initialTables(d);
  return {
    initial: `
${tables.accounts}

${tables.apiKeys}
${INITIAL_INDEXES.apiKeys}
${tables.timers}
${INITIAL_INDEXES.timers}${
  d.postgres
    ? `
-- A create inserts its key's row first (a placeholder), so a concurrent request with the same
-- key waits on the primary key until the first commits, then replays it.`
    : `
-- A plain rowid table: responses can be large, which WITHOUT ROWID handles poorly.`
}
${tables.idempotencyKeys}
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);

${tables.usageCounters}

${tables.rateWindows}
CREATE INDEX rate_windows_start ON rate_windows (window_start);

-- Append-only and written on every request: no primary key index to maintain on id.
${tables.requestLog}
CREATE INDEX request_log_page ON request_log (account_id, environment, created_at, id);${
      d.postgres
        ? `
CREATE INDEX request_log_request
  ON request_log (account_id, environment, request_id, created_at, id);`
        : `
-- Looking one request up by its id must not scan the account's whole log; the trailing
-- (created_at, id) keeps its rows in page order, so the planner has no sort to avoid.
CREATE INDEX request_log_request ON request_log (account_id, environment, request_id, created_at, id);`
    }
CREATE INDEX request_log_created ON request_log (created_at);

${tables.secrets}
`,
    timerActivity: `${
      d.postgres
        ? `
-- Every change and control action on a timer; its revision orders one timer's entries.`
        : `
-- Every change and control action on a timer, with who (key id and prefix, never the
-- secret), what (fields before and after) and the request id.`
    }
${tables.timerActivity}${
  d.postgres
    ? ``
    : `
-- Changes to one timer are serialised by its revision, which orders them totally (two
-- changes in the same millisecond still come out in order).`
}
CREATE UNIQUE INDEX timer_activity_page
  ON timer_activity (account_id, environment, timer_id, revision);
`,
    webhooks: `${
      d.postgres
        ? ``
        : `
-- Registered receivers. The signing secret is kept in clear: HMAC signing needs it.`
    }
${tables.webhookDestinations}
CREATE INDEX webhook_destinations_page ON webhook_destinations (account_id, environment, created_at, id)
  WHERE deleted_at IS NULL;
${
  d.postgres
    ? `
-- Rules on timers. Time-based rules carry their schedule: every instant up to fired_through
-- has fired; next_fire_at is when to look again (0: recompute now, NULL: not until the timer
-- changes). A timer change sets next_fire_at to 0 in its own statement.`
    : `
-- Rules on timers. Rules with time-based events carry their schedule: every instant up to
-- fired_through has fired; next_fire_at is when to look again (0: recompute now, NULL: not
-- until the timer changes). A timer change sets next_fire_at to 0 in its own transaction.`
}
${tables.webhookRules}
CREATE INDEX webhook_rules_timer ON webhook_rules (account_id, environment, timer_id, created_at, id);
CREATE INDEX webhook_rules_destination ON webhook_rules (destination_id);${
      d.postgres
        ? `
CREATE INDEX webhook_rules_due ON webhook_rules (next_fire_at, id) WHERE next_fire_at IS NOT NULL;`
        : `
CREATE INDEX webhook_rules_due ON webhook_rules (next_fire_at) WHERE next_fire_at IS NOT NULL;`
    }

-- The outbox: an event is written in the transaction of the change that caused it, with one
-- delivery per destination it goes to.
${tables.webhookEvents}

${tables.webhookDeliveries}
CREATE INDEX webhook_deliveries_page ON webhook_deliveries (account_id, environment, created_at, id);
CREATE INDEX webhook_deliveries_status
  ON webhook_deliveries (account_id, environment, status, created_at, id);${
    d.postgres
      ? `
-- The workers' claim walks this: only pending rows, in due order. Settled deliveries leave
-- it, so it stays as small as the backlog however long the history grows.`
      : `
-- The workers' claim walks this: only pending rows, in due order.`
  }
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at)
  WHERE status = 'pending';

${tables.webhookAttempts}
`,
    timerViewers: `${
      d.postgres
        ? `
-- The first view of each recipient or browser: a duration (evergreen) timer counts from it.`
        : `
-- The first view of each recipient (email image URL) or browser (hosted-page cookie): a
-- duration (evergreen) timer counts from it. One row per (timer, viewer), written once.`
    }
${tables.timerViewers}
`,
  };
}
