import type { WebhookStore, WebhookWorkerStore } from "../../contract";
import type { ViewerEventQueries } from "../../shared/queries";
import type { Db } from "../_db";
import { createWebhookDeliveryQueries } from "./deliveries";
import { createWebhookDestinationQueries } from "./destinations";
import { createOutboxStatsQuery } from "./outbox-stats";
import { createWebhookRuleQueries } from "./rules";
import { createWebhookScheduleQueries } from "./schedule";
import { createViewerEventQueries } from "./viewer-events";

/**
 * The webhook parts of the PostgreSQL adapter: destinations, rules and deliveries for the API,
 * leased claims, time-based rules and per-recipient events for workers.
 */
export function createPostgresWebhookStore(
  db: Db,
): WebhookStore & WebhookWorkerStore & ViewerEventQueries {
  return {
    ...createWebhookDestinationQueries(db),
    ...createWebhookRuleQueries(db),
    ...createWebhookDeliveryQueries(db),
    ...createWebhookScheduleQueries(db),
    ...createOutboxStatsQuery(db),
    ...createViewerEventQueries(db),
  };
}
