import { type AssetRecord, type AssetStore, StoreError } from "../contract";
import { mapConstraintError } from "./_errors";
import type { Generations } from "./_generations";
import type { SqliteDatabase } from "./database";

/** Every column but the bytes: lists and reads of one file's description never load them. */
export const ASSET_COLUMNS =
  "id, account_id, environment, kind, name, format, byte_size, sha256, width, height, font_family, created_at";

const SCOPE = "account_id = ? AND environment = ?";

/** Prepares the upload statements and returns their methods. */
export function createSqliteAssetStore(db: SqliteDatabase, generations: Generations): AssetStore {
  const count = db.prepare(`SELECT count(*) AS n FROM assets WHERE ${SCOPE}`);
  const insert = db.prepare(
    `INSERT INTO assets (${ASSET_COLUMNS}, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     RETURNING ${ASSET_COLUMNS}`,
  );
  const one = db.prepare(`SELECT ${ASSET_COLUMNS} FROM assets WHERE ${SCOPE} AND id = ?`);
  const bytes = db.prepare(`SELECT data FROM assets WHERE ${SCOPE} AND id = ?`);
  const drop = db.prepare(`DELETE FROM assets WHERE ${SCOPE} AND id = ?`);
  // Four shapes of one keyset page: first or later page, all kinds or one.
  const page = (after: boolean, kind: boolean) =>
    db.prepare(
      `SELECT ${ASSET_COLUMNS} FROM assets WHERE ${SCOPE}${kind ? " AND kind = ?" : ""}${
        after ? " AND (created_at, id) < (?, ?)" : ""
      } ORDER BY created_at DESC, id DESC LIMIT ?`,
    );
  const pages = [page(false, false), page(true, false), page(false, true), page(true, true)];
  const createTx = db.transaction(
    (input: Parameters<AssetStore["createAsset"]>[0]): AssetRecord => {
      const { asset: a, max_assets } = input;
      const { n } = count.get(a.account_id, a.environment) as { n: number };
      if (n >= max_assets) {
        throw new StoreError(
          "limit_reached",
          `the environment already has ${n} uploaded files (limit ${max_assets})`,
        );
      }
      return insert.get(
        a.id,
        a.account_id,
        a.environment,
        a.kind,
        a.name,
        a.format,
        a.data.byteLength,
        a.sha256,
        a.width,
        a.height,
        a.font_family,
        a.created_at,
        // better-sqlite3 binds a Buffer as a BLOB (a view of the same bytes, not a copy).
        Buffer.from(a.data.buffer, a.data.byteOffset, a.data.byteLength),
      ) as AssetRecord;
    },
  );
  const deleteTx = db.transaction((account_id: string, environment: string, id: string) => {
    const gone = drop.run(account_id, environment, id).changes > 0;
    if (gone) generations.bump("assets");
    return gone;
  });
  return {
    async createAsset(input) {
      try {
        return createTx.immediate(input);
      } catch (error) {
        throw mapConstraintError(error, `uploaded file ${input.asset.id}`);
      }
    },
    async listAssets(query) {
      if (!(query.limit > 0)) return [];
      const params: unknown[] = [query.account_id, query.environment];
      if (query.kind) params.push(query.kind);
      if (query.after) params.push(query.after.value, query.after.id);
      params.push(query.limit);
      return pages[(query.after ? 1 : 0) + (query.kind ? 2 : 0)]!.all(...params) as AssetRecord[];
    },
    getAsset: async (account_id, environment, id) =>
      (one.get(account_id, environment, id) as AssetRecord | undefined) ?? null,
    async getAssetData(account_id, environment, id) {
      const row = bytes.get(account_id, environment, id) as { data: Buffer } | undefined;
      return row?.data ?? null;
    },
    deleteAsset: async ({ account_id, environment, id }) =>
      deleteTx.immediate(account_id, environment, id),
  };
}
