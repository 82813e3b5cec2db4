import { type LookStore, SAVED_LOOKS_MAX, type SavedLook, StoreError } from "../contract";
import type { Db } from "./_db";
import { ms } from "./_sql";

const COLUMNS = "id, account_id, environment, name, look, created_at";

type LookRow = Omit<SavedLook, "created_at"> & { created_at: string };

const toLook = (row: LookRow): SavedLook => ({ ...row, created_at: ms(row.created_at) });

/** The saved-look queries over `db`. */
export function createPostgresLookStore(db: Db): LookStore {
  return {
    saveLook: ({ id, account_id, environment, name, look, now }) =>
      db.transaction(async (query) => {
        // The account's row lock orders saves: the count and the insert see the same looks.
        await query("SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE", [account_id]);
        const replaced = await query<LookRow>(
          `UPDATE saved_looks SET look = $4
           WHERE account_id = $1 AND environment = $2 AND name = $3 RETURNING ${COLUMNS}`,
          [account_id, environment, name, look],
        );
        if (replaced.rows[0]) return toLook(replaced.rows[0]);
        const { rows } = await query<{ n: number }>(
          "SELECT count(*)::int AS n FROM saved_looks WHERE account_id = $1 AND environment = $2",
          [account_id, environment],
        );
        if (rows[0]!.n >= SAVED_LOOKS_MAX) {
          throw new StoreError("limit_reached", `at most ${SAVED_LOOKS_MAX} saved looks`);
        }
        const inserted = await query<LookRow>(
          `INSERT INTO saved_looks (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
          [id, account_id, environment, name, look, now],
        );
        return toLook(inserted.rows[0]!);
      }),
    async listLooks({ account_id, environment }) {
      const { rows } = await db.query<LookRow>(
        `SELECT ${COLUMNS} FROM saved_looks WHERE account_id = $1 AND environment = $2
         ORDER BY name, id`,
        [account_id, environment],
      );
      return rows.map(toLook);
    },
    async deleteLook({ account_id, environment, id }) {
      const { rowCount } = await db.query(
        "DELETE FROM saved_looks WHERE id = $1 AND account_id = $2 AND environment = $3",
        [id, account_id, environment],
      );
      return (rowCount ?? 0) > 0;
    },
  };
}
