// Dashboard users, their one-time password links, their sessions and the sign-in limit.
// The store keeps hashes only: a password as its scrypt string (made by the caller), a link's
// token and a session's id as SHA-256 hashes. The caller hashes; the store compares equality
// through a unique index.

/** What a dashboard user may do: `owner` everything, `member` timers and usage. */
export type UserRole = "owner" | "member";

/** A person who signs in to the dashboard of one account. */
export interface DashboardUser {
  id: string;
  account_id: string;
  /** Lowercase; unique across the whole store (sign-in finds the account by it). */
  email: string;
  role: UserRole;
  /** The scrypt hash string; null until the user sets a password through a link. */
  password_hash: string | null;
  created_at: number;
  updated_at: number;
}

/** A signed-in browser: the hash of its cookie value, never the value. */
export interface DashboardSession {
  /** SHA-256 (hex) of the cookie value. */
  id_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
}

/** The answer of the sign-in attempt counter. */
export interface SignInAttempt {
  /** Whether this attempt is within the limit (it is counted either way). */
  allowed: boolean;
  /** When the window of this attempt ends: the caller's `Retry-After`. */
  window_ends_at: number;
}

/** Dashboard users, password links, sessions and sign-in attempts. */
export interface UserStore {
  /**
   * Creates a user without a password. A duplicate email throws `StoreError` `conflict`, an
   * unknown account `not_found`.
   */
  createUser(input: {
    id: string;
    account_id: string;
    email: string;
    role: UserRole;
    now: number;
  }): Promise<DashboardUser>;
  getUser(id: string): Promise<DashboardUser | null>;
  /** The user with this (lowercase) email, or null. */
  findUserByEmail(email: string): Promise<DashboardUser | null>;
  /** The account's users, oldest first. */
  listUsers(account_id: string): Promise<DashboardUser[]>;
  /**
   * Atomic: gives a user of the account another role. Demoting the account's last owner
   * throws `StoreError` `conflict` and changes nothing, even when two demotions race. Null
   * when the account has no such user.
   */
  setUserRole(input: {
    id: string;
    account_id: string;
    role: UserRole;
    now: number;
  }): Promise<DashboardUser | null>;
  /**
   * Atomic: removes a user of the account with their sessions and password links (they are
   * signed out at once). Removing the account's last owner throws `StoreError` `conflict`;
   * false when the account has no such user.
   */
  deleteUser(input: { id: string; account_id: string }): Promise<boolean>;
  /**
   * Stores a one-time set-password link for a user (its token's SHA-256 hash). Earlier
   * unused links of the user stop working: only the newest link counts.
   */
  createPasswordLink(input: {
    token_hash: string;
    user_id: string;
    expires_at: number;
    now: number;
  }): Promise<void>;
  /** The user a live (unused, unexpired) link belongs to, without using it; null otherwise. */
  findPasswordLink(input: { token_hash: string; now: number }): Promise<DashboardUser | null>;
  /**
   * Atomic: uses a live link once, sets the user's password hash and ends every session of
   * the user (a reset must lock out whoever knew the old password). Returns the user, or null
   * when the link is unknown, used or expired; a link works exactly once, even when two
   * requests race with it.
   */
  usePasswordLink(input: {
    token_hash: string;
    password_hash: string;
    now: number;
  }): Promise<DashboardUser | null>;
  /** Stores a new session; expired sessions of the same user are removed on the way. */
  createSession(input: {
    id_hash: string;
    user_id: string;
    expires_at: number;
    now: number;
  }): Promise<DashboardSession>;
  /** The live session with this hash and its user; null when unknown or expired. */
  findSession(input: {
    id_hash: string;
    now: number;
  }): Promise<{ session: DashboardSession; user: DashboardUser } | null>;
  /** Ends one session (sign out); false when there was none. */
  deleteSession(id_hash: string): Promise<boolean>;
  /** Ends every session of a user (sign out everywhere); returns how many ended. */
  deleteUserSessions(user_id: string): Promise<number>;
  /**
   * Atomic: counts one sign-in attempt for `key` (an email, an address) in the fixed window
   * of `window_ms` containing `now` and answers whether it is within `max` attempts of that
   * window. Concurrent attempts (and processes) cannot pass the limit together.
   */
  countSignInAttempt(input: {
    key: string;
    window_ms: number;
    max: number;
    now: number;
  }): Promise<SignInAttempt>;
}
