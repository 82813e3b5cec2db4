import { StoreError } from "../../contract";
import type { WebhookDestinationQueries } from "../../shared/queries";
import { lockAccount } from "../_account-lock";
import type { Db } from "../_db";
import { mapConstraintError } from "../_errors";
import { insertUnderLimit } from "../_insert-under-limit";
import { DESTINATION_COLUMNS, type DestinationRow, fromRow } from "../_rows";

const LIVE = "account_id = $1 AND environment = $2 AND deleted_at IS NULL";

/** The destination methods: one statement each, but the create (a short transaction). */
export function createWebhookDestinationQueries(db: Db): WebhookDestinationQueries {
  const one = async (sql: string, values: unknown[]) => {
    const { rows } = await db.query<DestinationRow>(sql, values);
    return rows[0] ? fromRow.destination(rows[0]) : null;
  };
  return {
    async createWebhookDestination({ destination: d, max_destinations }) {
      try {
        return await db.transaction(async (query) => {
          // Count and insert under a row lock on the account, as API keys do.
          await lockAccount(query, d.account_id, `webhook destination ${d.id}`);
          const { live, row } = await insertUnderLimit<DestinationRow>(
            query,
            {
              table: "webhook_destinations",
              columns: DESTINATION_COLUMNS,
              live: LIVE,
              values: `SELECT $3::text, $1::text, $2::text, $4::text, $5::text, $6::text[], $7::boolean,
                 NULL, $8::text, NULL, NULL, $9::bigint, $9::bigint`,
              limit: "$10",
            },
            [
              d.account_id,
              d.environment,
              d.id,
              d.url,
              d.description,
              d.events,
              d.enabled,
              d.secret,
              d.created_at,
              max_destinations,
            ],
          );
          if (row === null) {
            throw new StoreError(
              "limit_reached",
              `the environment already has ${live} webhook destinations (limit ${max_destinations})`,
            );
          }
          return fromRow.destination(row);
        });
      } catch (error) {
        throw mapConstraintError(error, `webhook destination ${d.id}`);
      }
    },
    async listWebhookDestinations(query) {
      if (!(query.limit > 0)) return [];
      const { rows } = query.after
        ? await db.query<DestinationRow>(
            `SELECT ${DESTINATION_COLUMNS} FROM webhook_destinations WHERE ${LIVE}
               AND (created_at, id) < ($4::bigint, $5::text)
             ORDER BY created_at DESC, id DESC LIMIT $3`,
            [query.account_id, query.environment, query.limit, query.after.value, query.after.id],
          )
        : await db.query<DestinationRow>(
            `SELECT ${DESTINATION_COLUMNS} FROM webhook_destinations WHERE ${LIVE}
             ORDER BY created_at DESC, id DESC LIMIT $3`,
            [query.account_id, query.environment, query.limit],
          );
      return rows.map(fromRow.destination);
    },
    getWebhookDestination: (account_id, environment, id) =>
      one(`SELECT ${DESTINATION_COLUMNS} FROM webhook_destinations WHERE ${LIVE} AND id = $3`, [
        account_id,
        environment,
        id,
      ]),
    updateWebhookDestination({ account_id, environment, id, patch, now }) {
      // One UPDATE computes the new state from the row it locks. Enabling clears the reason;
      // disabling by hand records it unless one (e.g. `gone`) is already set.
      return one(
        `UPDATE webhook_destinations SET
           url = coalesce($4::text, url),
           description = CASE WHEN $5::boolean THEN $6::text ELSE description END,
           events = coalesce($7::text[], events),
           enabled = coalesce($8::boolean, enabled),
           disabled_reason = CASE
             WHEN coalesce($8::boolean, enabled) THEN NULL
             WHEN $8::boolean = false THEN 'disabled'
             ELSE disabled_reason END,
           updated_at = $9::bigint
         WHERE ${LIVE} AND id = $3
         RETURNING ${DESTINATION_COLUMNS}`,
        [
          account_id,
          environment,
          id,
          patch.url ?? null,
          patch.description !== undefined,
          patch.description ?? null,
          patch.events ?? null,
          patch.enabled ?? null,
          now,
        ],
      );
    },
    async deleteWebhookDestination({ account_id, environment, id, now }) {
      // Its rules go with it, in the same statement: a rule naming a deleted destination
      // could never deliver.
      const { rows } = await db.query<{ deleted: number }>(
        `WITH deleted AS (
           UPDATE webhook_destinations SET deleted_at = $4, updated_at = $4
           WHERE ${LIVE} AND id = $3 RETURNING id
         ), rules AS (
           DELETE FROM webhook_rules WHERE destination_id IN (SELECT id FROM deleted)
         )
         SELECT count(*)::int AS deleted FROM deleted`,
        [account_id, environment, id, now],
      );
      return rows[0]!.deleted > 0;
    },
    rotateWebhookSecret({ account_id, environment, id, secret, previous_expires_at, now }) {
      return one(
        `UPDATE webhook_destinations SET previous_secret = secret,
           previous_secret_expires_at = $4, secret = $5, updated_at = $6
         WHERE ${LIVE} AND id = $3
         RETURNING ${DESTINATION_COLUMNS}`,
        [account_id, environment, id, previous_expires_at, secret, now],
      );
    },
  };
}
