import type { WebhookStore, WebhookWorkerStore } from "../../contract";
import type { ViewerEventQueries } from "../../shared/queries";
import type { GroupWrite } from "../_group-commit";
import type { SqliteDatabase } from "../database";
import { createWebhookDeliveryQueries } from "./deliveries";
import { createWebhookDestinationQueries } from "./destinations";
import { createOutbox } from "./outbox";
import { createOutboxStatsQuery } from "./outbox-stats";
import { createWebhookRuleQueries } from "./rules";
import { createWebhookScheduleQueries } from "./schedule";
import { createViewerEventQueries } from "./viewer-events";

/**
 * The webhook parts of the SQLite adapter: destinations, rules and deliveries for the API,
 * leased claims, time-based rules and per-recipient events for workers.
 */
export function createSqliteWebhookStore(
  db: SqliteDatabase,
  write: GroupWrite,
): WebhookStore & WebhookWorkerStore & ViewerEventQueries {
  const outbox = createOutbox(db);
  return {
    ...createWebhookDestinationQueries(db, write),
    ...createWebhookRuleQueries(db, write),
    ...createWebhookDeliveryQueries(db, write),
    ...createWebhookScheduleQueries(db, write, outbox),
    ...createOutboxStatsQuery(db),
    ...createViewerEventQueries(db, write, outbox),
  };
}
