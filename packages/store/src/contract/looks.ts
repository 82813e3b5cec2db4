import type { Environment } from "./common";

/** The most looks one account may save in one environment. */
export const SAVED_LOOKS_MAX = 50;

/** A timer look saved under a name (a brand kit), to start new timers from. */
export interface SavedLook {
  id: string;
  account_id: string;
  environment: Environment;
  /** 1 to 100 characters, unique in the account's environment. */
  name: string;
  /** The look as the API's `look` field takes it, JSON. */
  look: string;
  created_at: number;
}

/** Saved looks, scoped by account and environment like every tenant row. */
export interface LookStore {
  /**
   * Saves `look` under `name`; a name already saved in the environment is replaced (keeping
   * its id). A new name beyond {@link SAVED_LOOKS_MAX} throws `StoreError` `limit_reached`.
   * Atomic.
   */
  saveLook(input: {
    id: string;
    account_id: string;
    environment: Environment;
    name: string;
    look: string;
    now: number;
  }): Promise<SavedLook>;
  /** The environment's saved looks, by name. */
  listLooks(input: { account_id: string; environment: Environment }): Promise<SavedLook[]>;
  /** Deletes one saved look; false when there was none. */
  deleteLook(input: { account_id: string; environment: Environment; id: string }): Promise<boolean>;
}
