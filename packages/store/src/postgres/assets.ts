import type { AssetRecord, AssetStore } from "../contract";
import { StoreError } from "../contract";
import { lockAccount } from "./_account-lock";
import type { Db } from "./_db";
import { mapConstraintError } from "./_errors";
import { bumpCte } from "./_generations";
import { ms } from "./_sql";

/** Every column but the bytes: lists and reads of one file's description never load them. */
const COLUMNS =
  "id, account_id, environment, kind, name, format, byte_size, sha256, width, height, font_family, created_at";

const SCOPE = "account_id = $1 AND environment = $2";

type AssetRow = Omit<AssetRecord, "byte_size" | "created_at"> & {
  byte_size: string;
  created_at: string;
};

const toAsset = (row: AssetRow): AssetRecord => ({
  ...row,
  byte_size: ms(row.byte_size),
  created_at: ms(row.created_at),
});

/** The upload queries over `db`: one statement each, but the create (a short transaction). */
export function createPostgresAssetStore(db: Db): AssetStore {
  return {
    async createAsset({ asset: a, max_assets }) {
      try {
        return await db.transaction(async (query) => {
          // Count and insert under a row lock on the account, as destinations do.
          await lockAccount(query, a.account_id, `uploaded file ${a.id}`);
          // Counted and inserted in one statement; RETURNING leaves the bytes where they are.
          const { rows } = await query<AssetRow & { live: number; id: string | null }>(
            `WITH live AS (
               SELECT count(*)::int AS live FROM assets WHERE ${SCOPE}
             ), inserted AS (
               INSERT INTO assets (${COLUMNS}, data)
               SELECT $3::text, $1::text, $2::text, $4::text, $5::text, $6::text, $7::bigint,
                 $8::text, $9::integer, $10::integer, $11::text, $12::bigint, $13::bytea
               FROM live WHERE live < $14::int
               RETURNING ${COLUMNS}
             )
             SELECT live.live, inserted.* FROM live LEFT JOIN inserted ON true`,
            [
              a.account_id,
              a.environment,
              a.id,
              a.kind,
              a.name,
              a.format,
              a.data.byteLength,
              a.sha256,
              a.width,
              a.height,
              a.font_family,
              a.created_at,
              Buffer.from(a.data.buffer, a.data.byteOffset, a.data.byteLength),
              max_assets,
            ],
          );
          const { live, ...row } = rows[0]!;
          if (row.id === null) {
            throw new StoreError(
              "limit_reached",
              `the environment already has ${live} uploaded files (limit ${max_assets})`,
            );
          }
          return toAsset(row as AssetRow);
        });
      } catch (error) {
        throw mapConstraintError(error, `uploaded file ${a.id}`);
      }
    },
    async listAssets(query) {
      if (!(query.limit > 0)) return [];
      const values: unknown[] = [query.account_id, query.environment, query.limit];
      let where = SCOPE;
      if (query.kind) {
        values.push(query.kind);
        where += ` AND kind = $${values.length}`;
      }
      if (query.after) {
        values.push(query.after.value, query.after.id);
        where += ` AND (created_at, id) < ($${values.length - 1}::bigint, $${values.length}::text)`;
      }
      const { rows } = await db.query<AssetRow>(
        `SELECT ${COLUMNS} FROM assets WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $3`,
        values,
      );
      return rows.map(toAsset);
    },
    async getAsset(account_id, environment, id) {
      const { rows } = await db.query<AssetRow>(
        `SELECT ${COLUMNS} FROM assets WHERE ${SCOPE} AND id = $3`,
        [account_id, environment, id],
      );
      return rows[0] ? toAsset(rows[0]) : null;
    },
    async getAssetData(account_id, environment, id) {
      const { rows } = await db.query<{ data: Uint8Array }>(
        `SELECT data FROM assets WHERE ${SCOPE} AND id = $3`,
        [account_id, environment, id],
      );
      return rows[0]?.data ?? null;
    },
    async deleteAsset({ account_id, environment, id }) {
      // The file and its generation go in one statement: no process keeps drawing with it.
      const { rows } = await db.query<{ deleted: number }>(
        `WITH deleted AS (
           DELETE FROM assets WHERE ${SCOPE} AND id = $3 RETURNING id
         ), bumped AS (${bumpCte("assets", "deleted")})
         SELECT count(*)::int AS deleted FROM deleted`,
        [account_id, environment, id],
      );
      return (rows[0]?.deleted ?? 0) > 0;
    },
  };
}
