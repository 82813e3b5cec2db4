import type { Account, Store } from "../types";
import { mapConstraintError } from "./_errors";
import { ACCOUNT_COLUMNS, type AccountRow } from "./_rows";
import type { SqliteDatabase } from "./database";

/** The account methods of the store, over statements prepared once. */
export type AccountQueries = Pick<
  Store,
  | "createAccount"
  | "getAccount"
  | "findAccountByName"
  | "listAccounts"
  | "setAccountStatus"
  | "setAccountPlan"
>;

/** Prepares the account statements and returns the account methods. */
export function createAccountQueries(db: SqliteDatabase): AccountQueries {
  const insert = db.prepare(
    `INSERT INTO accounts (id, name, plan, status, created_at) VALUES (?, ?, ?, 'active', ?)
     RETURNING ${ACCOUNT_COLUMNS}`,
  );
  const byId = db.prepare(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = ?`);
  const byName = db.prepare(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE name = ?`);
  const all = db.prepare(`SELECT ${ACCOUNT_COLUMNS} FROM accounts ORDER BY name, id`);
  const setStatus = db.prepare(
    `UPDATE accounts SET status = ? WHERE id = ? RETURNING ${ACCOUNT_COLUMNS}`,
  );
  const setPlan = db.prepare(
    `UPDATE accounts SET plan = ? WHERE id = ? RETURNING ${ACCOUNT_COLUMNS}`,
  );

  return {
    async createAccount({ id, name, plan, now }) {
      try {
        return insert.get(id, name, plan, now) as AccountRow;
      } catch (error) {
        throw mapConstraintError(error, `account "${name}"`);
      }
    },
    async getAccount(id) {
      return (byId.get(id) as AccountRow | undefined) ?? null;
    },
    async findAccountByName(name) {
      return (byName.get(name) as AccountRow | undefined) ?? null;
    },
    /** Sorted by name, for stable CLI listings. */
    async listAccounts() {
      return all.all() as Account[];
    },
    async setAccountStatus(id, status) {
      return (setStatus.get(status, id) as AccountRow | undefined) ?? null;
    },
    async setAccountPlan(id, plan) {
      return (setPlan.get(plan, id) as AccountRow | undefined) ?? null;
    },
  };
}
