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
import { ms, msOrNull } from "./_sql";

// Column lists shared by every SELECT of a table, so mappers and queries cannot drift apart.

/** Columns of `accounts` as read into `AccountRow`. */
export const ACCOUNT_COLUMNS = "id, name, plan, status, created_at";

/** Columns of `api_keys` as read into `KeyRow`. */
export const KEY_COLUMNS =
  "id, account_id, environment, prefix, hash, scopes, created_at, revoked_at, expires_at, name";

/** Columns of `timers` as read into `TimerRow`. */
export const TIMER_COLUMNS =
  "id, account_id, environment, name, type, status, revision, created_at, updated_at, published_at, data";

/** Columns of `request_log` as read into `RequestLogRow`. */
export const REQUEST_LOG_COLUMNS =
  "id, account_id, environment, key_id, key_prefix, request_id, method, route, status, error_code, duration_ms, created_at";

/** Unix-ms columns arrive as strings (bigint). */
type Bigint = string | number;

/** An `accounts` row. */
export interface AccountRow extends Omit<Account, "created_at"> {
  created_at: Bigint;
}

/** An `api_keys` row: scopes already a text[] array. */
export interface KeyRow extends Omit<ApiKeyRecord, "created_at" | "revoked_at" | "expires_at"> {
  created_at: Bigint;
  revoked_at: Bigint | null;
  expires_at: Bigint | null;
}

/** A `timers` row: `data` already parsed from json by the driver. */
export interface TimerRow {
  id: string;
  account_id: string;
  environment: Environment;
  name: string;
  type: TimerType;
  status: TimerStatus;
  revision: number;
  created_at: Bigint;
  updated_at: Bigint;
  published_at: Bigint | null;
  data: Record<string, unknown>;
}

/** A `request_log` row. */
export interface RequestLogRow extends Omit<RequestLogEntry, "created_at"> {
  created_at: Bigint;
}

/** The stored-response columns of `idempotency_keys`: headers already parsed from jsonb. */
export interface ResponseRow {
  response_status: number;
  response_headers: Record<string, string>;
  response_body: string;
}

/** `accounts` row to record. */
export function toAccount(row: AccountRow): Account {
  return { ...row, created_at: ms(row.created_at) };
}

/** `api_keys` row to record. */
export function toKey(row: KeyRow): ApiKeyRecord {
  return {
    ...row,
    created_at: ms(row.created_at),
    revoked_at: msOrNull(row.revoked_at),
    expires_at: msOrNull(row.expires_at),
  };
}

/** `timers` row to record. */
export function toTimer(row: TimerRow): TimerRecord {
  return {
    ...row,
    created_at: ms(row.created_at),
    updated_at: ms(row.updated_at),
    published_at: msOrNull(row.published_at),
  };
}

/** `request_log` row to entry. */
export function toRequestLogEntry(row: RequestLogRow): RequestLogEntry {
  return { ...row, created_at: ms(row.created_at) };
}

/** Stored-response columns to the response kept for replay, body untouched. */
export function toStoredResponse(row: ResponseRow): StoredResponse {
  return { status: row.response_status, headers: row.response_headers, body: row.response_body };
}

/**
 * The row a create or change writes, as every later read returns it: `data` goes through JSON
 * exactly as the json column stores it (text kept byte for byte, parsed on read).
 */
export function asStored(data: Record<string, unknown>): {
  text: string;
  value: Record<string, unknown>;
} {
  const text = JSON.stringify(data);
  return { text, value: JSON.parse(text) as Record<string, unknown> };
}
