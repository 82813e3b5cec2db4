import type {
  Account,
  ApiKeyRecord,
  ClaimedDelivery,
  RequestLogEntry,
  StoredResponse,
  TimerRecord,
  WebhookAttempt,
  WebhookAttemptTrigger,
  WebhookDelivery,
  WebhookDeliveryStatus,
  WebhookDestination,
  WebhookEventType,
  WebhookRule,
} from "../contract";

// The rows both adapters read (the columns of `columns.ts`) and their mappers to records. The
// drivers differ only in how some columns arrive, which a `ColumnDecoder` undoes: node-postgres
// returns bigint as a string and parses json, text[] and boolean itself; better-sqlite3 returns
// numbers, and JSON text and 0/1 for what SQLite has no type for.

/** A Unix-ms or counter column as a driver returns it (pg: bigint as a string). */
export type Ms = number | string;

/** How one driver's column values become the records' types. */
export interface ColumnDecoder {
  /** A bigint (Unix ms) column. */
  ms(value: Ms): number;
  /** A JSON column holding an object (pg's json and jsonb arrive parsed; SQLite's is text). */
  json<T>(value: unknown): T;
  /** A list column (pg's text[] arrives as an array; SQLite's is JSON text). */
  list<T extends string>(value: unknown): T[];
  /** A boolean column (SQLite's is 0 or 1). */
  bool(value: unknown): boolean;
}

/** An `accounts` row. */
export interface AccountRow extends Omit<Account, "created_at"> {
  created_at: Ms;
}

/** An `api_keys` row: scopes still encoded. */
export interface KeyRow
  extends Omit<ApiKeyRecord, "scopes" | "created_at" | "revoked_at" | "expires_at"> {
  scopes: unknown;
  created_at: Ms;
  revoked_at: Ms | null;
  expires_at: Ms | null;
}

/** A key joined with its account (`KEY_WITH_ACCOUNT`). */
export interface KeyWithAccountRow extends KeyRow {
  account_name: string;
  account_plan: string;
  account_status: Account["status"];
  account_created_at: Ms;
}

/** A `timers` row: data still encoded. */
export interface TimerRow
  extends Omit<TimerRecord, "data" | "created_at" | "updated_at" | "published_at"> {
  created_at: Ms;
  updated_at: Ms;
  published_at: Ms | null;
  data: unknown;
}

/** A `request_log` row. */
export interface RequestLogRow extends Omit<RequestLogEntry, "created_at"> {
  created_at: Ms;
}

/** The stored-response columns of `idempotency_keys`: headers still encoded. */
export interface ResponseRow {
  response_status: number;
  response_headers: unknown;
  response_body: string;
}

/** A `webhook_destinations` row: events and enabled still encoded. */
export interface DestinationRow
  extends Omit<
    WebhookDestination,
    "events" | "enabled" | "previous_secret_expires_at" | "created_at" | "updated_at"
  > {
  events: unknown;
  enabled: unknown;
  previous_secret_expires_at: Ms | null;
  created_at: Ms;
  updated_at: Ms;
}

/** A `webhook_rules` row: events still encoded. */
export interface RuleRow extends Omit<WebhookRule, "events" | "created_at"> {
  events: unknown;
  created_at: Ms;
}

/** A delivery joined with its event (`DELIVERY_COLUMNS`); its attempts are read apart. */
export interface DeliveryRow
  extends Pick<
    WebhookDelivery,
    "id" | "account_id" | "environment" | "destination_id" | "rule_id" | "replay_of"
  > {
  status: WebhookDeliveryStatus;
  next_attempt_at: Ms | null;
  created_at: Ms;
  updated_at: Ms;
  event_id: string;
  event_type: WebhookEventType;
  event_timer_id: string;
  event_payload: string;
  event_occurred_at: Ms;
}

/** A delivery a worker just leased, with its event and its destination's signing state. */
export interface ClaimedRow
  extends Omit<
    DeliveryRow,
    "status" | "next_attempt_at" | "rule_id" | "replay_of" | "created_at" | "updated_at"
  > {
  attempt_count: number;
  next_trigger: WebhookAttemptTrigger;
  lease_until: Ms;
  url: string;
  enabled: unknown;
  deleted_at: Ms | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Ms | null;
}

/** The mappers of every shared row, for one driver. */
export interface RowMappers {
  account(row: AccountRow): Account;
  key(row: KeyRow): ApiKeyRecord;
  keyWithAccount(row: KeyWithAccountRow): { key: ApiKeyRecord; account: Account };
  timer(row: TimerRow): TimerRecord;
  requestLogEntry(row: RequestLogRow): RequestLogEntry;
  /** The response kept for replay, body untouched. */
  storedResponse(row: ResponseRow): StoredResponse;
  destination(row: DestinationRow): WebhookDestination;
  /** Field by field: schedule columns read beside a rule stay out of the record. */
  rule(row: RuleRow): WebhookRule;
  delivery(row: DeliveryRow, attempts: WebhookAttempt[]): WebhookDelivery;
  /** `now` decides whether the previous secret still signs. */
  claimedDelivery(row: ClaimedRow, now: number): ClaimedDelivery;
}

/** The row mappers over one driver's `decode`: each adapter makes its set once. */
export function rowMappers(decode: ColumnDecoder): RowMappers {
  const { ms, json, list, bool } = decode;
  const msOrNull = (value: Ms | null) => (value === null ? null : ms(value));
  const event = (r: DeliveryRow | ClaimedRow): WebhookDelivery["event"] => ({
    id: r.event_id,
    type: r.event_type,
    timer_id: r.event_timer_id,
    payload: r.event_payload,
    occurred_at: ms(r.event_occurred_at),
  });
  const key = (row: KeyRow): ApiKeyRecord => ({
    ...row,
    scopes: list(row.scopes),
    created_at: ms(row.created_at),
    revoked_at: msOrNull(row.revoked_at),
    expires_at: msOrNull(row.expires_at),
  });
  return {
    account: (row) => ({ ...row, created_at: ms(row.created_at) }),
    key,
    keyWithAccount: ({
      account_name,
      account_plan,
      account_status,
      account_created_at,
      ...row
    }) => ({
      key: key(row),
      account: {
        id: row.account_id,
        name: account_name,
        plan: account_plan,
        status: account_status,
        created_at: ms(account_created_at),
      },
    }),
    timer: (row) => ({
      ...row,
      created_at: ms(row.created_at),
      updated_at: ms(row.updated_at),
      published_at: msOrNull(row.published_at),
      data: json(row.data),
    }),
    requestLogEntry: (row) => ({ ...row, created_at: ms(row.created_at) }),
    storedResponse: (row) => ({
      status: row.response_status,
      headers: json(row.response_headers),
      body: row.response_body,
    }),
    destination: (row) => ({
      ...row,
      events: list(row.events),
      enabled: bool(row.enabled),
      previous_secret_expires_at: msOrNull(row.previous_secret_expires_at),
      created_at: ms(row.created_at),
      updated_at: ms(row.updated_at),
    }),
    rule: (row) => ({
      id: row.id,
      account_id: row.account_id,
      environment: row.environment,
      timer_id: row.timer_id,
      destination_id: row.destination_id,
      events: list(row.events),
      offset_seconds: row.offset_seconds,
      created_at: ms(row.created_at),
    }),
    delivery: (r, attempts) => ({
      id: r.id,
      account_id: r.account_id,
      environment: r.environment,
      event: event(r),
      destination_id: r.destination_id,
      rule_id: r.rule_id,
      status: r.status,
      attempts,
      next_attempt_at: r.status === "pending" ? msOrNull(r.next_attempt_at) : null,
      replay_of: r.replay_of,
      created_at: ms(r.created_at),
      updated_at: ms(r.updated_at),
    }),
    claimedDelivery(r, now) {
      const secrets = [r.secret];
      // During a rotation both secrets sign, so receivers on either one keep verifying.
      if (r.previous_secret && (msOrNull(r.previous_secret_expires_at) ?? 0) > now) {
        secrets.push(r.previous_secret);
      }
      return {
        id: r.id,
        account_id: r.account_id,
        environment: r.environment,
        attempt: r.attempt_count + 1,
        trigger: r.next_trigger,
        event: event(r),
        destination: {
          id: r.destination_id,
          url: r.url,
          enabled: bool(r.enabled),
          deleted: r.deleted_at !== null,
          secrets,
        },
        lease_until: ms(r.lease_until),
      };
    },
  };
}
