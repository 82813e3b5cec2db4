// The columns each SELECT of a table reads, for both adapters (the tables have the same columns
// in SQLite and PostgreSQL): one list per table, so the mappers in `rows.ts` and every query
// read the same thing.

/** Columns of `accounts` as read into `AccountRow`. */
export const ACCOUNT_COLUMNS = "id, name, plan, status, created_at";

/** Columns of `api_keys` as read into `KeyRow`. */
export const KEY_COLUMNS =
  "id, account_id, environment, prefix, hash, scopes, created_at, revoked_at, expires_at, name";

/**
 * A live key joined with its account, as read into `KeyWithAccountRow`; the caller adds the
 * hash to match (the per-request lookup: one unique-index probe and a primary-key join).
 */
export const KEY_WITH_ACCOUNT = `SELECT k.id, k.account_id, k.environment, k.prefix, k.hash,
       k.scopes, k.created_at, k.revoked_at, k.expires_at, k.name, a.name AS account_name,
       a.plan AS account_plan, a.status AS account_status, a.created_at AS account_created_at
     FROM api_keys k JOIN accounts a ON a.id = k.account_id
     WHERE k.revoked_at IS NULL`;

/** Columns of `timers` as read into `TimerRow`. */
export const TIMER_COLUMNS =
  "id, account_id, environment, name, type, status, revision, created_at, updated_at, published_at, data";

/** Columns of `request_log` as read into `RequestLogRow`. */
export const REQUEST_LOG_COLUMNS =
  "id, account_id, environment, key_id, key_prefix, request_id, method, route, status, error_code, duration_ms, created_at";

/** Columns of `webhook_destinations` as read into `DestinationRow`. */
export const DESTINATION_COLUMNS =
  "id, account_id, environment, url, description, events, enabled, disabled_reason, secret, previous_secret, previous_secret_expires_at, created_at, updated_at";

/** Columns of `webhook_rules` as read into `RuleRow`. */
export const RULE_COLUMNS =
  "id, account_id, environment, timer_id, destination_id, events, offset_seconds, created_at";

/** Columns of a delivery joined with its event (`d` and `e`), as read into `DeliveryRow`. */
export const DELIVERY_COLUMNS = `d.id, d.account_id, d.environment, d.destination_id, d.rule_id,
  d.status, d.next_attempt_at, d.replay_of, d.created_at, d.updated_at,
  e.id AS event_id, e.type AS event_type, e.timer_id AS event_timer_id,
  e.payload AS event_payload, e.occurred_at AS event_occurred_at`;
