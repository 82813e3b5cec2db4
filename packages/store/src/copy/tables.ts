/**
 * How a column's value is compared and carried between the adapters, whatever each stores:
 * - `text`, `int` (Unix ms, counters), `real`: the same on both sides;
 * - `bool`: SQLite INTEGER 0/1, PostgreSQL boolean;
 * - `json`: text kept byte for byte (SQLite TEXT, PostgreSQL `json`, which keeps its input);
 * - `jsonmap`: a JSON object whose key order means nothing (PostgreSQL `jsonb` reorders it);
 * - `textlist`: a list of strings (SQLite a JSON array in TEXT, PostgreSQL `text[]`);
 * - `bytes`: a file (SQLite BLOB, PostgreSQL `bytea`), carried and compared as base64 text.
 */
export type CopyColumnType =
  | "text"
  | "int"
  | "real"
  | "bool"
  | "json"
  | "jsonmap"
  | "textlist"
  | "bytes";

/** One column of a copied table. */
export interface CopyColumn {
  name: string;
  type: CopyColumnType;
}

/** A table `tminus copy` carries, identical in meaning in both schemas. */
export interface CopyTable {
  name: string;
  columns: readonly CopyColumn[];
  /** Rows per batch when less than the copy's batch size: rows of files are megabytes each. */
  batchRows?: number;
  /**
   * The columns rows are read in order of, unique per row and the leading columns of an index
   * on both sides, so each batch continues where the last ended (and a resumed copy where the
   * interrupted one stopped) without a sort or a scan.
   */
  key: readonly string[];
}

const t = (name: string): CopyColumn => ({ name, type: "text" });
const i = (name: string): CopyColumn => ({ name, type: "int" });

/** The account and environment a row belongs to, side by side in every table that has both. */
const scope = [t("account_id"), t("environment")];

function table(name: string, key: string[], columns: CopyColumn[], batchRows?: number): CopyTable {
  return batchRows === undefined ? { name, key, columns } : { name, key, columns, batchRows };
}

/**
 * Every table of the schema (both adapters' migrations, at their latest version) that holds
 * data, parents before children so foreign keys hold after every batch. A table the schema
 * gains must be added here or to `UNCOPIED_TABLES`: the copy refuses a database with a table
 * or a column it does not know (and `store/test/copy-tables.test.ts` compares this list with
 * both migration histories).
 */
export const COPY_TABLES: readonly CopyTable[] = [
  table("accounts", ["id"], [t("id"), t("name"), t("plan"), t("status"), i("created_at")]),
  table(
    "api_keys",
    ["id"],
    [
      t("id"),
      ...scope,
      t("prefix"),
      t("hash"),
      { name: "scopes", type: "textlist" },
      i("created_at"),
      i("revoked_at"),
      i("expires_at"),
      t("name"),
    ],
  ),
  table(
    "timers",
    ["id"],
    [
      t("id"),
      ...scope,
      t("name"),
      t("type"),
      t("status"),
      i("revision"),
      i("created_at"),
      i("updated_at"),
      i("published_at"),
      i("deleted_at"),
      { name: "data", type: "json" },
    ],
  ),
  table(
    "timer_activity",
    ["id"],
    [
      t("id"),
      t("timer_id"),
      ...scope,
      t("action"),
      i("revision"),
      t("key_id"),
      t("key_prefix"),
      t("request_id"),
      { name: "changes", type: "json" },
      i("created_at"),
    ],
  ),
  table(
    "idempotency_keys",
    ["account_id", "environment", "key"],
    [
      ...scope,
      t("key"),
      t("fingerprint"),
      i("response_status"),
      { name: "response_headers", type: "jsonmap" },
      t("response_body"),
      i("created_at"),
      i("expires_at"),
    ],
  ),
  table(
    "usage_counters",
    ["account_id", "environment", "cycle_id", "metric"],
    [...scope, t("cycle_id"), t("metric"), i("total")],
  ),
  table("rate_windows", ["bucket", "window_start"], [t("bucket"), i("window_start"), i("hits")]),
  table(
    "request_log",
    // No primary key (append-only); its page index is unique through the id.
    ["account_id", "environment", "created_at", "id"],
    [
      t("id"),
      ...scope,
      t("key_id"),
      t("key_prefix"),
      t("request_id"),
      t("method"),
      t("route"),
      i("status"),
      t("error_code"),
      { name: "duration_ms", type: "real" },
      i("created_at"),
    ],
  ),
  table("secrets", ["name"], [t("name"), t("value")]),
  table(
    "webhook_destinations",
    ["id"],
    [
      t("id"),
      ...scope,
      t("url"),
      t("description"),
      { name: "events", type: "textlist" },
      { name: "enabled", type: "bool" },
      t("disabled_reason"),
      // Carried exactly as stored, so receivers keep verifying signatures.
      t("secret"),
      t("previous_secret"),
      i("previous_secret_expires_at"),
      i("created_at"),
      i("updated_at"),
      i("deleted_at"),
    ],
  ),
  table(
    "webhook_rules",
    ["id"],
    [
      t("id"),
      ...scope,
      t("timer_id"),
      t("destination_id"),
      { name: "events", type: "textlist" },
      i("offset_seconds"),
      { name: "time_based", type: "bool" },
      i("fired_through"),
      i("next_fire_at"),
      i("created_at"),
    ],
  ),
  table(
    "webhook_events",
    ["id"],
    [t("id"), ...scope, t("timer_id"), t("type"), t("payload"), i("occurred_at"), i("created_at")],
  ),
  table(
    "webhook_deliveries",
    ["id"],
    [
      t("id"),
      ...scope,
      t("event_id"),
      t("destination_id"),
      t("rule_id"),
      t("status"),
      i("attempt_count"),
      i("next_attempt_at"),
      t("next_trigger"),
      i("lease_until"),
      t("lease_worker"),
      t("replay_of"),
      i("created_at"),
      i("updated_at"),
    ],
  ),
  table(
    "webhook_attempts",
    ["delivery_id", "attempt"],
    [
      t("delivery_id"),
      i("attempt"),
      t("attempt_trigger"),
      i("started_at"),
      { name: "duration_ms", type: "real" },
      i("response_status"),
      t("response_body"),
      t("error"),
    ],
  ),
  // Evergreen (duration) timers count from here: moving it keeps every viewer's start.
  table("timer_viewers", ["timer_id", "viewer"], [t("timer_id"), t("viewer"), i("first_seen_at")]),
  table(
    "users",
    ["id"],
    [
      t("id"),
      t("account_id"),
      t("email"),
      t("role"),
      t("password_hash"),
      i("created_at"),
      i("updated_at"),
    ],
  ),
  table("saved_looks", ["id"], [t("id"), ...scope, t("name"), t("look"), i("created_at")]),
  table(
    "user_password_links",
    ["token_hash"],
    [t("token_hash"), t("user_id"), i("created_at"), i("expires_at"), i("used_at")],
  ),
  table(
    "user_sessions",
    ["id_hash"],
    [t("id_hash"), t("user_id"), i("created_at"), i("expires_at")],
  ),
  table("sign_in_attempts", ["key", "window_start"], [t("key"), i("window_start"), i("attempts")]),
  table(
    "render_views",
    ["timer_id", "hour", "kind", "client"],
    [
      t("timer_id"),
      i("hour"),
      t("kind"),
      t("client"),
      ...scope,
      i("views"),
      i("proxy_views"),
      i("prefetch_views"),
    ],
  ),
  table(
    "render_viewers",
    ["timer_id", "day", "viewer"],
    [t("timer_id"), i("day"), t("viewer"), ...scope, i("hours"), i("human_hours")],
  ),
  table(
    "render_clicks",
    ["timer_id", "hour", "state"],
    [
      t("timer_id"),
      i("hour"),
      t("state"),
      ...scope,
      i("clicks"),
      i("proxy_clicks"),
      i("prefetch_clicks"),
    ],
  ),
  table(
    "campaign_counts",
    ["timer_id", "day", "campaign"],
    [
      t("timer_id"),
      i("day"),
      t("campaign"),
      ...scope,
      i("views"),
      i("proxy_views"),
      i("prefetch_views"),
      i("clicks"),
      i("proxy_clicks"),
      i("prefetch_clicks"),
    ],
  ),
  table("analytics_salts", ["day"], [i("day"), t("salt")]),
  table(
    "viewer_events",
    ["timer_id", "viewer"],
    [
      t("timer_id"),
      t("viewer"),
      ...scope,
      t("recipient"),
      t("context"),
      i("started_at"),
      i("end_check_at"),
    ],
  ),
  table("viewer_event_days", ["timer_id", "day"], [t("timer_id"), i("day"), i("count")]),
  // Up to 2 MiB a row: 16 rows a batch keep a batch's memory near 32 MiB.
  table(
    "assets",
    ["id"],
    [
      t("id"),
      ...scope,
      t("kind"),
      t("name"),
      t("format"),
      i("byte_size"),
      t("sha256"),
      i("width"),
      i("height"),
      t("font_family"),
      { name: "data", type: "bytes" },
      i("created_at"),
    ],
    16,
  ),
];

/**
 * Tables the copy knows and leaves alone, with why. The target is migrated by the copy, so it
 * has its own version table; generations are per-database cache counters (different shapes in
 * the two schemas) that every process reads afresh when it starts.
 */
export const UNCOPIED_TABLES: Readonly<Record<string, string>> = {
  schema_migrations: "the SQLite schema version; the target is migrated by the copy",
  tminus_schema_migrations: "the PostgreSQL schema version; the target is migrated by the copy",
  generations: "cache counters of this database; processes read them afresh",
  tminus_copy_progress: "the copy's own resume record",
};

/** The table the copy keeps its resume state in, inside the target, until it verified. */
export const PROGRESS_TABLE = "tminus_copy_progress";
