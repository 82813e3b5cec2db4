import type { WebhookDeliveryStatus } from "@tminus/store";
import { uuidv7 } from "@tminus/store";
import { z } from "zod";
import { cursorBinding } from "../paging";
import { responseSchemas } from "../schemas/registry";
import { DELIVERY_ID_ERRORS, DocumentedError } from "../vocabulary/error-cases";
import { DELIVERY_ID, listQuery, oneOf } from "../vocabulary/parameters";
import { newestFirstPage, scopeOf, webhookNotFound } from "./_webhook-common";
import { deliveryView } from "./_webhook-views";
import type { RouteContext, RouteResult } from "./context";
import { defineRoute } from "./define";

/** Delivery statuses, in their lifecycle order (docs/webhooks.md). */
export const DELIVERY_STATUSES = [
  "pending",
  "succeeded",
  "failed",
] as const satisfies readonly WebhookDeliveryStatus[];

const LIST_QUERY = listQuery({
  status: oneOf(DELIVERY_STATUSES)
    .optional()
    .meta({ description: "Only deliveries in this status.", example: "failed" }),
});

const DELIVERY_PATH = z.object({ delivery_id: DELIVERY_ID });
type DeliveryContext = RouteContext<unknown, z.output<typeof DELIVERY_PATH>>;

/** The delivery's destination was deleted or disabled since. */
const DESTINATION_UNAVAILABLE = new DocumentedError(
  "validation_error",
  (reason: "deleted" | "disabled") => ({
    message:
      reason === "deleted"
        ? "the delivery's destination was deleted; events cannot be replayed to it"
        : "the delivery's destination is disabled; enable it (PATCH enabled: true) and replay again",
    details: { field: "destination_id", reason: `destination_${reason}` },
  }),
  { example: ["disabled"], name: "destination_disabled" },
);

async function listDeliveries(
  ctx: RouteContext<unknown, unknown, z.output<typeof LIST_QUERY>>,
): Promise<RouteResult> {
  const { limit, cursor, status } = ctx.query;
  const { account_id, environment } = scopeOf(ctx);
  const { store, cursors } = ctx.services;
  const binding = cursorBinding(ctx.auth, "webhook_deliveries", status);
  const after = cursor ? cursors.decode(cursor, binding) : undefined;
  const rows = await store.listWebhookDeliveries({
    account_id,
    environment,
    status,
    after,
    limit: limit + 1,
  });
  return newestFirstPage(rows, limit, deliveryView, cursors, binding);
}

async function getDelivery(ctx: DeliveryContext): Promise<RouteResult> {
  const id = ctx.params.delivery_id;
  const { account_id, environment } = scopeOf(ctx);
  const found = await ctx.services.store.getWebhookDelivery(account_id, environment, id);
  if (!found) throw webhookNotFound(DELIVERY_ID_ERRORS, id, ctx);
  return { data: deliveryView(found) };
}

/**
 * POST /webhook-deliveries/{id}/replay: a new delivery of the same event (same `webhook-id`,
 * so receivers can deduplicate) to the same destination, attempted at once and retried on the
 * normal schedule. Works whatever the original's status.
 */
async function replayDelivery(ctx: DeliveryContext): Promise<RouteResult> {
  const id = ctx.params.delivery_id;
  const outcome = await ctx.services.store.replayWebhookDelivery({
    ...scopeOf(ctx),
    id,
    new_id: uuidv7(ctx.now),
    now: ctx.now,
  });
  if (outcome.kind === "not_found") throw webhookNotFound(DELIVERY_ID_ERRORS, id, ctx);
  if (outcome.kind === "destination_unavailable") {
    throw DESTINATION_UNAVAILABLE.error(outcome.reason);
  }
  return { status: 201, data: deliveryView(outcome.delivery) };
}

/** Webhook deliveries: list (filter `status`), read, replay. */
export const webhookDeliveryRoutes = [
  defineRoute({
    method: "GET",
    path: "/webhook-deliveries",
    scope: "webhooks:read",
    operationId: "listWebhookDeliveries",
    summary: "List webhook deliveries",
    description:
      "Deliveries across destinations, newest first: the event and its payload, every attempt (time, response status, the first 1 KB of the response body, duration, error) and, while pending, when the next attempt is due. Retries follow 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (plus up to 10 % jitter; a `Retry-After` on 429 or 503 is honoured), then the delivery is `failed`.",
    tag: "Webhooks",
    query: LIST_QUERY,
    success: {
      status: 200,
      schema: responseSchemas.WebhookDeliveryList,
      description: "A page of deliveries.",
    },

    handle: listDeliveries,
  }),
  defineRoute({
    method: "GET",
    path: "/webhook-deliveries/{delivery_id}",
    params: DELIVERY_PATH,
    scope: "webhooks:read",
    operationId: "getWebhookDelivery",
    summary: "Read a webhook delivery",
    description: "One delivery with its event, payload and every attempt.",
    tag: "Webhooks",
    success: {
      status: 200,
      schema: responseSchemas.WebhookDeliveryResponse,
      description: "The delivery.",
    },

    handle: getDelivery,
  }),
  defineRoute({
    method: "POST",
    path: "/webhook-deliveries/{delivery_id}/replay",
    params: DELIVERY_PATH,
    scope: "webhooks:write",
    operationId: "replayWebhookDelivery",
    summary: "Replay a webhook delivery",
    description:
      "Queues a new delivery of the same event to the same destination, whatever the original's status: attempted at once (`trigger: manual`), then retried on the normal schedule. The body and `webhook-id` are the original's, so receivers that deduplicate by id see a replay of an event they already accepted as a duplicate.",
    tag: "Webhooks",
    success: {
      status: 201,
      schema: responseSchemas.WebhookDeliveryResponse,
      description: "The new delivery.",
    },
    errors: [DESTINATION_UNAVAILABLE],

    handle: replayDelivery,
  }),
];
