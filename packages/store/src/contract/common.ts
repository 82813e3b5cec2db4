// Types that every part of the contract shares.

/** The two fully separated data environments. */
export type Environment = "sandbox" | "production";

/** The lifecycle status of a timer. */
export type TimerStatus = "draft" | "published" | "archived";

/** The four timer types. */
export type TimerType = "fixed" | "duration" | "recurring" | "personalized";

/** Who made a change: the key (never its secret) and the request. */
export interface Actor {
  key_id: string | null;
  key_prefix: string | null;
  request_id: string | null;
}

/** Keyset position of lists ordered newest first by `(created_at, id)`. */
export interface NewestFirstPage {
  account_id: string;
  environment: Environment;
  /** Position of the last row of the previous page: strictly older than it. */
  after?: { value: number; id: string };
  limit: number;
}

/** One record of an account's environment, by its id. */
export interface RecordRef {
  account_id: string;
  environment: Environment;
  id: string;
}

/** Reads one record of an account's environment by its id; null when there is none. */
export type GetInEnvironment<T> = (
  account_id: string,
  environment: Environment,
  id: string,
) => Promise<T | null>;

/** Codes of errors a store throws on purpose (anything else is a fault). */
export type StoreErrorCode = "conflict" | "limit_reached" | "not_found";

/** An error that carries a code callers branch on; the store's error classes share it. */
export class CodedError<Code extends string> extends Error {
  readonly code: Code;
  constructor(name: string, code: Code, message: string) {
    super(message);
    this.name = name;
    this.code = code;
  }
}

/** An expected failure of a store operation. */
export class StoreError extends CodedError<StoreErrorCode> {
  constructor(code: StoreErrorCode, message: string) {
    super("StoreError", code, message);
  }
}

/** A timer row. `data` is opaque to the store: the http layer owns its shape. */
export interface TimerRecord {
  id: string;
  account_id: string;
  environment: Environment;
  name: string;
  type: TimerType;
  status: TimerStatus;
  /** Increases by one on every change; starts at 1. */
  revision: number;
  created_at: number;
  updated_at: number;
  published_at: number | null;
  /** Type-specific definition, look and clock state, stored as JSON. */
  data: Record<string, unknown>;
}
