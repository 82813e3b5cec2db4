import { type ApiKeyRecord, type RollApiKeyInput, type Store, StoreError } from "../../contract";
import type { ApiKeyQueries } from "../../shared/queries";
import type { KeyRow, KeyWithAccountRow } from "../../shared/rows";
import { replacementKeyValues } from "../../shared/values";
import { mapConstraintError } from "../_errors";
import type { Generations } from "../_generations";
import { fromRow, KEY_COLUMNS, KEY_WITH_ACCOUNT } from "../_rows";
import type { SqliteDatabase } from "../database";

/** Prepares the key statements and returns the key methods. */
export function createApiKeyQueries(db: SqliteDatabase, generations: Generations): ApiKeyQueries {
  // A rolled key (one with an end) does not hold a slot: its replacement took it over.
  const countLive = db.prepare(
    `SELECT count(*) AS live FROM api_keys
     WHERE account_id = ? AND environment = ? AND revoked_at IS NULL AND expires_at IS NULL`,
  );
  const insert = db.prepare(
    `INSERT INTO api_keys (${KEY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?)
     RETURNING ${KEY_COLUMNS}`,
  );
  // Hot path (every API request): one unique-index probe and a primary-key join.
  const byHash = db.prepare(`${KEY_WITH_ACCOUNT} AND k.hash = ?`);
  const listAll = db.prepare(
    `SELECT ${KEY_COLUMNS} FROM api_keys WHERE account_id = ? ORDER BY created_at DESC, id DESC`,
  );
  const listInEnvironment = db.prepare(
    `SELECT ${KEY_COLUMNS} FROM api_keys WHERE account_id = ? AND environment = ?
     ORDER BY created_at DESC, id DESC`,
  );
  const liveMatches = db.prepare(
    `SELECT ${KEY_COLUMNS} FROM api_keys
     WHERE (id = @needle OR prefix = @needle) AND revoked_at IS NULL
       AND (expires_at IS NULL OR expires_at > @now)
       AND (@account_id IS NULL OR account_id = @account_id)`,
  );
  const revoke = db.prepare(
    `UPDATE api_keys SET revoked_at = ? WHERE id = ? RETURNING ${KEY_COLUMNS}`,
  );
  const scheduleEnd = db.prepare(
    `UPDATE api_keys SET expires_at = ? WHERE id = ? RETURNING ${KEY_COLUMNS}`,
  );

  type CreateInput = Parameters<Store["createApiKey"]>[0];
  // IMMEDIATE takes the write lock before counting, so two creates cannot both see room.
  const createTx = db.transaction((input: CreateInput): ApiKeyRecord => {
    const { live } = countLive.get(input.account_id, input.environment) as { live: number };
    if (live >= input.max_active_keys) {
      throw new StoreError(
        "limit_reached",
        `the account already has ${live} live ${input.environment} key(s), its limit is ${input.max_active_keys}`,
      );
    }
    const row = insert.get(
      input.id,
      input.account_id,
      input.environment,
      input.prefix,
      input.hash,
      JSON.stringify(input.scopes),
      input.now,
      input.name ?? null,
    );
    return fromRow.key(row as KeyRow);
  });

  /** The one live key an id or prefix names; null for none, `conflict` for several. */
  const oneLive = (
    input: { id_or_prefix: string; account_id?: string; now: number },
    verb: string,
  ): KeyRow | null => {
    const rows = liveMatches.all({
      needle: input.id_or_prefix,
      account_id: input.account_id ?? null,
      now: input.now,
    }) as KeyRow[];
    if (rows.length === 0) return null;
    // Acting on the wrong key is worse than refusing: an ambiguous prefix needs the id.
    if (rows.length > 1) {
      throw new StoreError(
        "conflict",
        `"${input.id_or_prefix}" matches ${rows.length} live keys; ${verb} by id`,
      );
    }
    return rows[0]!;
  };

  type RevokeInput = Parameters<Store["revokeApiKey"]>[0];
  const revokeTx = db.transaction((input: RevokeInput): ApiKeyRecord | null => {
    const row = oneLive(input, "revoke");
    if (!row) return null;
    generations.bump("auth");
    return fromRow.key(revoke.get(input.now, row.id) as KeyRow);
  });

  const rollTx = db.transaction((input: RollApiKeyInput) => {
    const row = oneLive(input, "roll");
    if (!row) return null;
    if (row.expires_at !== null) {
      throw new StoreError(
        "conflict",
        `key ${row.prefix} was already rolled; it stops working at ${new Date(row.expires_at).toISOString()}`,
      );
    }
    const rolled = fromRow.key(scheduleEnd.get(input.expires_at, row.id) as KeyRow);
    generations.bump("auth");
    const next = input.replacement(rolled);
    const replacement = fromRow.key(
      insert.get(...replacementKeyValues(next, row, input.now)) as KeyRow,
    );
    return { rolled, replacement };
  });

  return {
    async createApiKey(input) {
      try {
        return createTx.immediate(input);
      } catch (error) {
        throw mapConstraintError(error, "API key");
      }
    },
    async findApiKeyByHash(hash) {
      const row = byHash.get(hash) as KeyWithAccountRow | undefined;
      return row ? fromRow.keyWithAccount(row) : null;
    },
    async listApiKeys(account_id, environment) {
      const rows = (
        environment ? listInEnvironment.all(account_id, environment) : listAll.all(account_id)
      ) as KeyRow[];
      return rows.map(fromRow.key);
    },
    async revokeApiKey(input) {
      return revokeTx.immediate(input);
    },
    async rollApiKey(input) {
      try {
        return rollTx.immediate(input);
      } catch (error) {
        throw mapConstraintError(error, "API key");
      }
    },
  };
}
