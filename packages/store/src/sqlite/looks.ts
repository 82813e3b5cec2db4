import { type LookStore, SAVED_LOOKS_MAX, type SavedLook, StoreError } from "../contract";
import type { SqliteDatabase } from "./database";

const COLUMNS = "id, account_id, environment, name, look, created_at";

/** Prepares the saved-look statements and returns their methods. */
export function createSqliteLookStore(db: SqliteDatabase): LookStore {
  const byName = db.prepare(
    `SELECT ${COLUMNS} FROM saved_looks WHERE account_id = ? AND environment = ? AND name = ?`,
  );
  const count = db.prepare(
    "SELECT count(*) AS n FROM saved_looks WHERE account_id = ? AND environment = ?",
  );
  const insert = db.prepare(
    `INSERT INTO saved_looks (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
  );
  const replace = db.prepare(`UPDATE saved_looks SET look = ? WHERE id = ? RETURNING ${COLUMNS}`);
  const list = db.prepare(
    `SELECT ${COLUMNS} FROM saved_looks WHERE account_id = ? AND environment = ? ORDER BY name, id`,
  );
  const drop = db.prepare(
    "DELETE FROM saved_looks WHERE id = ? AND account_id = ? AND environment = ?",
  );
  const saveTx = db.transaction((input: Parameters<LookStore["saveLook"]>[0]): SavedLook => {
    const { id, account_id, environment, name, look, now } = input;
    const found = byName.get(account_id, environment, name) as SavedLook | undefined;
    if (found) return replace.get(look, found.id) as SavedLook;
    const { n } = count.get(account_id, environment) as { n: number };
    if (n >= SAVED_LOOKS_MAX) {
      throw new StoreError("limit_reached", `at most ${SAVED_LOOKS_MAX} saved looks`);
    }
    return insert.get(id, account_id, environment, name, look, now) as SavedLook;
  });
  return {
    saveLook: async (input) => saveTx.immediate(input),
    listLooks: async ({ account_id, environment }) =>
      list.all(account_id, environment) as SavedLook[],
    deleteLook: async ({ account_id, environment, id }) =>
      drop.run(id, account_id, environment).changes > 0,
  };
}
