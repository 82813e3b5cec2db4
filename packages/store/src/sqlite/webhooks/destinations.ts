import { StoreError, type WebhookDestination } from "../../contract";
import type { WebhookDestinationQueries } from "../../shared/queries";
import { mapConstraintError } from "../_errors";
import type { GroupWrite } from "../_group-commit";
import { DESTINATION_COLUMNS, type DestinationRow, fromRow, newestFirstRows } from "../_rows";
import type { SqliteDatabase } from "../database";

/** Prepares the destination statements and returns their methods. */
export function createWebhookDestinationQueries(
  db: SqliteDatabase,
  write: GroupWrite,
): WebhookDestinationQueries {
  const live = "account_id = ? AND environment = ? AND deleted_at IS NULL";
  const countLive = db.prepare(`SELECT count(*) AS n FROM webhook_destinations WHERE ${live}`);
  const insert = db.prepare(
    `INSERT INTO webhook_destinations (${DESTINATION_COLUMNS})
     VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, NULL, NULL, ?, ?)`,
  );
  const byId = db.prepare(
    `SELECT ${DESTINATION_COLUMNS} FROM webhook_destinations WHERE id = ? AND ${live}`,
  );
  const first = db.prepare(
    `SELECT ${DESTINATION_COLUMNS} FROM webhook_destinations WHERE ${live}
     ORDER BY created_at DESC, id DESC LIMIT ?`,
  );
  const next = db.prepare(
    `SELECT ${DESTINATION_COLUMNS} FROM webhook_destinations WHERE ${live}
       AND (created_at, id) < (?, ?)
     ORDER BY created_at DESC, id DESC LIMIT ?`,
  );
  const update = db.prepare(
    `UPDATE webhook_destinations SET url = ?, description = ?, events = ?, enabled = ?,
       disabled_reason = ?, updated_at = ?
     WHERE id = ? AND ${live}`,
  );
  const softDelete = db.prepare(
    `UPDATE webhook_destinations SET deleted_at = ?, updated_at = ? WHERE id = ? AND ${live}`,
  );
  const deleteRules = db.prepare("DELETE FROM webhook_rules WHERE destination_id = ?");
  const rotate = db.prepare(
    `UPDATE webhook_destinations SET previous_secret = secret, previous_secret_expires_at = ?,
       secret = ?, updated_at = ?
     WHERE id = ? AND ${live}`,
  );

  const read = (account_id: string, environment: string, id: string) => {
    const row = byId.get(id, account_id, environment) as DestinationRow | undefined;
    return row ? fromRow.destination(row) : null;
  };

  return {
    async createWebhookDestination({ destination: d, max_destinations }) {
      try {
        // Count and insert under one write lock, so concurrent creates never exceed the limit.
        return await write((): WebhookDestination => {
          const { n } = countLive.get(d.account_id, d.environment) as { n: number };
          if (n >= max_destinations) {
            throw new StoreError(
              "limit_reached",
              `the environment already has ${n} webhook destinations (limit ${max_destinations})`,
            );
          }
          insert.run(
            d.id,
            d.account_id,
            d.environment,
            d.url,
            d.description,
            JSON.stringify(d.events),
            d.enabled ? 1 : 0,
            d.secret,
            d.created_at,
            d.created_at,
          );
          return read(d.account_id, d.environment, d.id)!;
        });
      } catch (error) {
        throw mapConstraintError(error, `webhook destination ${d.id}`);
      }
    },
    async listWebhookDestinations(query) {
      const scope = [query.account_id, query.environment];
      return newestFirstRows<DestinationRow>(first, next, scope, query).map(fromRow.destination);
    },
    async getWebhookDestination(account_id, environment, id) {
      return read(account_id, environment, id);
    },
    async updateWebhookDestination({ account_id, environment, id, patch, now }) {
      return write(() => {
        const current = read(account_id, environment, id);
        if (!current) return null;
        const enabled = patch.enabled ?? current.enabled;
        // Enabling clears the reason; disabling by hand records it unless one is already set.
        const reason = enabled
          ? null
          : patch.enabled === false
            ? "disabled"
            : current.disabled_reason;
        update.run(
          patch.url ?? current.url,
          patch.description === undefined ? current.description : patch.description,
          JSON.stringify(patch.events ?? current.events),
          enabled ? 1 : 0,
          reason,
          now,
          id,
          account_id,
          environment,
        );
        return read(account_id, environment, id);
      });
    },
    async deleteWebhookDestination({ account_id, environment, id, now }) {
      return write(() => {
        const changed = softDelete.run(now, now, id, account_id, environment).changes > 0;
        // Its rules go with it: a rule naming a deleted destination could never deliver.
        if (changed) deleteRules.run(id);
        return changed;
      });
    },
    async rotateWebhookSecret({ account_id, environment, id, secret, previous_expires_at, now }) {
      return write(() => {
        const changed = rotate.run(previous_expires_at, secret, now, id, account_id, environment);
        return changed.changes > 0 ? read(account_id, environment, id) : null;
      });
    },
  };
}
