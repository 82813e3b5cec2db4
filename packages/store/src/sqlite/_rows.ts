import type {
  Account,
  ApiKeyRecord,
  Environment,
  RequestLogEntry,
  StoredResponse,
  TimerRecord,
  TimerStatus,
  TimerType,
} from "../contract";

// Column lists shared by every SELECT of a table, so mappers and queries cannot drift apart.

/** Columns of `accounts` in `Account` order. */
export const ACCOUNT_COLUMNS = "id, name, plan, status, created_at";

/** Columns of `api_keys` as read into `KeyRow`. */
export const KEY_COLUMNS =
  "id, account_id, environment, prefix, hash, scopes, created_at, revoked_at, expires_at, name";

/** Columns of `timers` as read into `TimerRow`. */
export const TIMER_COLUMNS =
  "id, account_id, environment, name, type, status, revision, created_at, updated_at, published_at, data";

/** Columns of `request_log` in `RequestLogEntry` order. */
export const REQUEST_LOG_COLUMNS =
  "id, account_id, environment, key_id, key_prefix, request_id, method, route, status, error_code, duration_ms, created_at";

/** An `accounts` row: already the `Account` shape. */
export type AccountRow = Account;

/** An `api_keys` row: scopes still JSON text. */
export interface KeyRow {
  id: string;
  account_id: string;
  environment: Environment;
  prefix: string;
  hash: string;
  scopes: string;
  created_at: number;
  revoked_at: number | null;
  expires_at: number | null;
  name: string | null;
}

/** A `timers` row: data still JSON text. */
export interface TimerRow {
  id: string;
  account_id: string;
  environment: Environment;
  name: string;
  type: TimerType;
  status: TimerStatus;
  revision: number;
  created_at: number;
  updated_at: number;
  published_at: number | null;
  data: string;
}

/** A `request_log` row: already the `RequestLogEntry` shape. */
export type RequestLogRow = RequestLogEntry;

/** The stored-response columns of `idempotency_keys`. */
export interface ResponseRow {
  response_status: number;
  response_headers: string;
  response_body: string;
}

/** `api_keys` row to record. */
export function toKey(row: KeyRow): ApiKeyRecord {
  return { ...row, scopes: JSON.parse(row.scopes) as string[] };
}

/** `timers` row to record. */
export function toTimer(row: TimerRow): TimerRecord {
  return { ...row, data: JSON.parse(row.data) as Record<string, unknown> };
}

/** Stored-response columns to the response kept for replay, body untouched. */
export function toStoredResponse(row: ResponseRow): StoredResponse {
  return {
    status: row.response_status,
    headers: JSON.parse(row.response_headers) as Record<string, string>,
    body: row.response_body,
  };
}
