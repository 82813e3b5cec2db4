import { StoreError } from "../../contract";
import type { ApiKeyQueries } from "../../shared/queries";
import type { KeyRow, KeyWithAccountRow } from "../../shared/rows";
import { replacementKeyValues } from "../../shared/values";
import { lockAccount } from "../_account-lock";
import type { Db } from "../_db";
import { mapConstraintError } from "../_errors";
import { bumpCte } from "../_generations";
import { insertUnderLimit } from "../_insert-under-limit";
import { fromRow, KEY_COLUMNS, KEY_WITH_ACCOUNT } from "../_rows";
import { ms } from "../_sql";
import { named } from "../_statements";

/** The per-request key lookup: one unique-index probe and a primary-key join. */
const FIND_BY_HASH = named(`${KEY_WITH_ACCOUNT} AND k.hash = $1`);

/** The key methods. Creating is a short transaction; everything else is one statement. */
export function createApiKeyQueries(db: Db): ApiKeyQueries {
  return {
    async createApiKey(input) {
      try {
        return await db.transaction(async (query) => {
          // Serialise key creation per account. The count below then runs in a new snapshot
          // that sees every committed key.
          await lockAccount(query, input.account_id, "API key");
          const { live, row } = await insertUnderLimit<KeyRow>(
            query,
            {
              table: "api_keys",
              columns: KEY_COLUMNS,
              live: `account_id = $2::text AND environment = $3::text AND revoked_at IS NULL
                 AND expires_at IS NULL -- a rolled key's slot went to its replacement`,
              values: `SELECT $1::text, $2::text, $3::text, $4::text, $5::text, $6::text[], $7::bigint,
                 NULL, NULL, $9::text`,
              limit: "$8",
            },
            [
              input.id,
              input.account_id,
              input.environment,
              input.prefix,
              input.hash,
              input.scopes,
              input.now,
              input.max_active_keys,
              input.name ?? null,
            ],
          );
          if (row === null) {
            // Thrown inside the transaction: it rolls back and the error reaches the caller.
            throw new StoreError(
              "limit_reached",
              `the account already has ${live} live ${input.environment} key(s), its limit is ${input.max_active_keys}`,
            );
          }
          return fromRow.key(row);
        });
      } catch (error) {
        throw mapConstraintError(error, "API key");
      }
    },
    // Hot path (every API request): one unique-index probe and a primary-key join.
    async findApiKeyByHash(hash) {
      const { rows } = await db.query<KeyWithAccountRow>(FIND_BY_HASH, [hash]);
      return rows[0] ? fromRow.keyWithAccount(rows[0]) : null;
    },
    async listApiKeys(account_id, environment) {
      const { rows } = environment
        ? await db.query<KeyRow>(
            `SELECT ${KEY_COLUMNS} FROM api_keys WHERE account_id = $1 AND environment = $2
             ORDER BY created_at DESC, id DESC`,
            [account_id, environment],
          )
        : await db.query<KeyRow>(
            `SELECT ${KEY_COLUMNS} FROM api_keys WHERE account_id = $1
             ORDER BY created_at DESC, id DESC`,
            [account_id],
          );
      return rows.map(fromRow.key);
    },
    async revokeApiKey(input) {
      // One statement: lock the live matches, revoke only when exactly one matched. A revoke
      // racing another waits for its lock, then sees the key revoked and matches nothing.
      const { rows } = await db.query<KeyRow & { matches: number }>(
        `WITH matched AS (
           SELECT id FROM api_keys
           WHERE (id = $1 OR prefix = $1) AND revoked_at IS NULL
             AND (expires_at IS NULL OR expires_at > $3::bigint)
             AND ($2::text IS NULL OR account_id = $2)
           FOR UPDATE
         ), n AS (
           SELECT count(*)::int AS matches FROM matched
         ), revoked AS (
           UPDATE api_keys k SET revoked_at = $3::bigint FROM n
           WHERE n.matches = 1 AND k.id IN (SELECT id FROM matched)
           RETURNING ${KEY_COLUMNS.split(", ")
             .map((c) => `k.${c}`)
             .join(", ")}
         ), gen AS (${bumpCte("auth", "revoked")})
         SELECT n.matches, revoked.* FROM n LEFT JOIN revoked ON true`,
        [input.id_or_prefix, input.account_id ?? null, input.now],
      );
      const { matches, ...row } = rows[0]!;
      if (matches === 0) return null;
      // Revoking the wrong key is worse than refusing: an ambiguous prefix needs the id.
      if (matches > 1) {
        throw new StoreError(
          "conflict",
          `"${input.id_or_prefix}" matches ${matches} live keys; revoke by id`,
        );
      }
      return fromRow.key(row as KeyRow);
    },
    async rollApiKey(input) {
      try {
        return await db.transaction(async (query) => {
          // Lock the live matches: a concurrent roll or revoke of the same key waits, then sees
          // it changed and refuses.
          const { rows } = await query<KeyRow>(
            `SELECT ${KEY_COLUMNS} FROM api_keys
             WHERE (id = $1 OR prefix = $1) AND revoked_at IS NULL
               AND (expires_at IS NULL OR expires_at > $3::bigint)
               AND ($2::text IS NULL OR account_id = $2)
             FOR UPDATE`,
            [input.id_or_prefix, input.account_id ?? null, input.now],
          );
          if (rows.length === 0) return null;
          if (rows.length > 1) {
            throw new StoreError(
              "conflict",
              `"${input.id_or_prefix}" matches ${rows.length} live keys; roll by id`,
            );
          }
          const row = rows[0]!;
          if (row.expires_at !== null) {
            throw new StoreError(
              "conflict",
              `key ${row.prefix} was already rolled; it stops working at ${new Date(ms(row.expires_at)).toISOString()}`,
            );
          }
          const { rows: ended } = await query<KeyRow>(
            `WITH k AS (
               UPDATE api_keys SET expires_at = $1::bigint WHERE id = $2 RETURNING ${KEY_COLUMNS}
             ), gen AS (${bumpCte("auth", "k")})
             SELECT * FROM k`,
            [input.expires_at, row.id],
          );
          const rolled = fromRow.key(ended[0]!);
          const next = input.replacement(rolled);
          const { rows: inserted } = await query<KeyRow>(
            `INSERT INTO api_keys (${KEY_COLUMNS})
             VALUES ($1, $2, $3, $4, $5, $6::text[], $7::bigint, NULL, NULL, $8)
             RETURNING ${KEY_COLUMNS}`,
            replacementKeyValues(next, row, input.now),
          );
          return { rolled, replacement: fromRow.key(inserted[0]!) };
        });
      } catch (error) {
        throw mapConstraintError(error, "API key");
      }
    },
  };
}
