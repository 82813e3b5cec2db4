import type { Environment } from "./common";

/** Whether an account may use the API. */
export type AccountStatus = "active" | "suspended";

/** An account owns keys, timers and usage in both environments. */
export interface Account {
  id: string;
  /** Unique, human-chosen name (CLI `--account`). */
  name: string;
  /** Plan name, a key of the operator's plan table (`starter`, `growth`, ...). */
  plan: string;
  status: AccountStatus;
  created_at: number;
}

/** An API key as stored: never the secret, only its SHA-256 hash. */
export interface ApiKeyRecord {
  id: string;
  account_id: string;
  environment: Environment;
  /** The non-secret start of the key shown in lists and logs, e.g. `svc_test_8f3k2`. */
  prefix: string;
  /** Lowercase hex SHA-256 of the full secret. */
  hash: string;
  /** Scopes granted; `["*"]` grants every route. */
  scopes: string[];
  /** The owner's note of where the key is used (dashboard, `--name`); null when none. */
  name: string | null;
  created_at: number;
  revoked_at: number | null;
  /**
   * When a rolled key stops working (it was replaced by `rollApiKey`); null for a key without
   * an end. A key past this instant is treated as revoked; a key with an end does not count
   * against the environment's key limit.
   */
  expires_at: number | null;
}

/** Input of the atomic key roll: the key to replace and its replacement. */
export interface RollApiKeyInput {
  /** The key to replace, by id or prefix. */
  id_or_prefix: string;
  /** Restricts the match to one account. */
  account_id?: string;
  /**
   * Makes the replacement's id, prefix and hash for the key being rolled (whose environment
   * decides the prefix); called inside the transaction, at most once per attempt. The
   * replacement gets the same account, environment, scopes and name.
   */
  replacement: (rolled: ApiKeyRecord) => { id: string; prefix: string; hash: string };
  /** When the replaced key stops working. */
  expires_at: number;
  now: number;
}

/** Accounts and their API keys (who may call the API, and under which plan). */
export interface AccountStore {
  // Accounts
  /** Creates an account; a duplicate name throws `StoreError` with code `conflict`. */
  createAccount(input: { id: string; name: string; plan: string; now: number }): Promise<Account>;
  getAccount(id: string): Promise<Account | null>;
  findAccountByName(name: string): Promise<Account | null>;
  listAccounts(): Promise<Account[]>;
  /** Suspends or reactivates an account; null when it does not exist. */
  setAccountStatus(id: string, status: AccountStatus): Promise<Account | null>;
  /** Moves an account to another plan; null when it does not exist. */
  setAccountPlan(id: string, plan: string): Promise<Account | null>;

  // API keys
  /**
   * Atomic: counts the account's live keys in the environment and inserts the new one only
   * while fewer than `max_active_keys` exist; otherwise throws `StoreError` `limit_reached`.
   */
  createApiKey(
    input: Pick<
      ApiKeyRecord,
      "id" | "account_id" | "environment" | "prefix" | "hash" | "scopes"
    > & {
      /** A note of where the key is used; absent or null for none. */
      name?: string | null;
      max_active_keys: number;
      now: number;
    },
  ): Promise<ApiKeyRecord>;
  /**
   * The key with this hash that is not revoked, and its account. A rolled key is returned
   * until it is revoked, with its `expires_at`: the caller compares it with its own clock.
   */
  findApiKeyByHash(hash: string): Promise<{ key: ApiKeyRecord; account: Account } | null>;
  /** Keys of an account, newest first, revoked ones included. */
  listApiKeys(account_id: string, environment?: Environment): Promise<ApiKeyRecord[]>;
  /**
   * Revokes a live key (not revoked, not past `expires_at`) by id or prefix (within the
   * account when given) and returns it; null when no live key matched. A prefix shared by
   * several live keys throws `conflict`.
   */
  revokeApiKey(input: {
    id_or_prefix: string;
    account_id?: string;
    now: number;
  }): Promise<ApiKeyRecord | null>;
  /**
   * Atomic key rotation: schedules a live key's end at `expires_at` and issues its replacement
   * (same account, environment and scopes), in one transaction. Needs no free key slot: the
   * rolled key stops counting against the limit as its replacement starts. Null when no live
   * key matched; `conflict` when the prefix is ambiguous or the key was already rolled.
   */
  rollApiKey(
    input: RollApiKeyInput,
  ): Promise<{ rolled: ApiKeyRecord; replacement: ApiKeyRecord } | null>;
}
