import type { AccountQueries } from "../../shared/queries";
import type { Db } from "../_db";
import { mapConstraintError } from "../_errors";
import { bumpCte } from "../_generations";
import { ACCOUNT_COLUMNS, type AccountRow, fromRow } from "../_rows";

/** The account methods: one statement each. */
export function createAccountQueries(db: Db): AccountQueries {
  const one = async (sql: string, values: unknown[]) => {
    const { rows } = await db.query<AccountRow>(sql, values);
    return rows[0] ? fromRow.account(rows[0]) : null;
  };
  /** `column` is one of two fixed names, never a caller's string. */
  const set = (column: "status" | "plan", value: string, id: string) =>
    one(
      `WITH a AS (UPDATE accounts SET ${column} = $1 WHERE id = $2 RETURNING ${ACCOUNT_COLUMNS}),
         gen AS (${bumpCte("auth", "a")})
       SELECT * FROM a`,
      [value, id],
    );
  return {
    async createAccount({ id, name, plan, now }) {
      try {
        const account = await one(
          `INSERT INTO accounts (id, name, plan, status, created_at) VALUES ($1, $2, $3, 'active', $4)
           RETURNING ${ACCOUNT_COLUMNS}`,
          [id, name, plan, now],
        );
        return account!;
      } catch (error) {
        throw mapConstraintError(error, `account "${name}"`);
      }
    },
    getAccount: (id) => one(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = $1`, [id]),
    findAccountByName: (name) =>
      one(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE name = $1`, [name]),
    /** Sorted by name (binary), for stable CLI listings. */
    async listAccounts() {
      const { rows } = await db.query<AccountRow>(
        `SELECT ${ACCOUNT_COLUMNS} FROM accounts ORDER BY name, id`,
      );
      return rows.map(fromRow.account);
    },
    // Cached keys carry their account's status and plan: both move the auth generation.
    setAccountStatus: (id, status) => set("status", status, id),
    setAccountPlan: (id, plan) => set("plan", plan, id),
  };
}
