import type { Account } from "../../contract";
import type { AccountQueries } from "../../shared/queries";
import { mapConstraintError } from "../_errors";
import type { Generations } from "../_generations";
import { ACCOUNT_COLUMNS } from "../_rows";
import type { SqliteDatabase } from "../database";

/** Prepares the account statements and returns the account methods. */
export function createAccountQueries(db: SqliteDatabase, generations: Generations): AccountQueries {
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
  // Cached keys carry their account's status and plan: both changes move the auth generation.
  const setStatusTx = db.transaction((id: string, status: string) => {
    const row = setStatus.get(status, id) as Account | undefined;
    if (row) generations.bump("auth");
    return row ?? null;
  });
  const setPlanTx = db.transaction((id: string, plan: string) => {
    const row = setPlan.get(plan, id) as Account | undefined;
    if (row) generations.bump("auth");
    return row ?? null;
  });

  return {
    async createAccount({ id, name, plan, now }) {
      try {
        return insert.get(id, name, plan, now) as Account;
      } catch (error) {
        throw mapConstraintError(error, `account "${name}"`);
      }
    },
    async getAccount(id) {
      return (byId.get(id) as Account | undefined) ?? null;
    },
    async findAccountByName(name) {
      return (byName.get(name) as Account | undefined) ?? null;
    },
    /** Sorted by name, for stable CLI listings. */
    async listAccounts() {
      return all.all() as Account[];
    },
    async setAccountStatus(id, status) {
      return setStatusTx.immediate(id, status);
    },
    async setAccountPlan(id, plan) {
      return setPlanTx.immediate(id, plan);
    },
  };
}
