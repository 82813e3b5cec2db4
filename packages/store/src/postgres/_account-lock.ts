import { StoreError } from "../contract";
import type { Query } from "./_db";

/**
 * Locks the account's row for the rest of the transaction, so counting and inserting its keys
 * or destinations queue per account (other accounts never wait). NO KEY UPDATE does not block
 * the foreign-key checks of the account's other inserts; never a table lock. `what` names the
 * new row in the `not_found` error when the account does not exist.
 */
export async function lockAccount(query: Query, account_id: string, what: string): Promise<void> {
  const { rows } = await query("SELECT 1 FROM accounts WHERE id = $1 FOR NO KEY UPDATE", [
    account_id,
  ]);
  if (rows.length === 0) {
    throw new StoreError("not_found", `${what} refers to an account that does not exist`);
  }
}
