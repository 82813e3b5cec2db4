import type { WebhookStore, WebhookWorkerStore } from "../../contract";
import type { GroupWrite } from "../_group-commit";
import type { SqliteDatabase } from "../database";
import { createWebhookDeliveryQueries } from "./deliveries";
import { createWebhookDestinationQueries } from "./destinations";
import { createOutbox } from "./outbox";
import { createWebhookRuleQueries } from "./rules";
import { createWebhookScheduleQueries } from "./schedule";

/**
 * The webhook parts of the SQLite adapter: destinations, rules and deliveries for the API,
 * leased claims and time-based rules for workers.
 */
export function createSqliteWebhookStore(
  db: SqliteDatabase,
  write: GroupWrite,
): WebhookStore & WebhookWorkerStore {
  return {
    ...createWebhookDestinationQueries(db, write),
    ...createWebhookRuleQueries(db, write),
    ...createWebhookDeliveryQueries(db, write),
    ...createWebhookScheduleQueries(db, write, createOutbox(db)),
  };
}
