import type { WebhookDeliveryStatus } from "@tminus/store";
import { ApiError, validationError } from "../errors";
import type { RouteContext } from "../handler";
import { uuidv7 } from "../ids";
import { readListQuery } from "../paging";
import type { Route, RouteResult } from "../router";
import { deliveryView } from "../webhooks/views";
import { newestFirstPage, scopeOf, uuidParam, webhookNotFound } from "./_webhook-common";

/** Delivery statuses, in their lifecycle order (docs/webhooks.md). */
export const DELIVERY_STATUSES: readonly WebhookDeliveryStatus[] = [
  "pending",
  "succeeded",
  "failed",
];

async function listDeliveries(ctx: RouteContext): Promise<RouteResult> {
  const { limit, cursor, filters } = readListQuery(ctx.req.query, ["status"]);
  const status = filters.status as WebhookDeliveryStatus | undefined;
  if (status !== undefined && !DELIVERY_STATUSES.includes(status)) {
    throw validationError("status", `status must be one of ${DELIVERY_STATUSES.join(", ")}`);
  }
  const { account_id, environment } = scopeOf(ctx);
  const { store, cursors } = ctx.services;
  const binding = [account_id, environment, ctx.auth.key.id, "webhook_deliveries", status].join(
    "|",
  );
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

async function getDelivery(ctx: RouteContext): Promise<RouteResult> {
  const id = uuidParam(ctx.params.delivery_id, "delivery_id");
  const { account_id, environment } = scopeOf(ctx);
  const found = await ctx.services.store.getWebhookDelivery(account_id, environment, id);
  if (!found) throw webhookNotFound("webhook delivery", id, ctx);
  return { data: deliveryView(found) };
}

/**
 * POST /webhook-deliveries/{id}/replay: a new delivery of the same event (same `webhook-id`,
 * so receivers can deduplicate) to the same destination, attempted at once and retried on the
 * normal schedule. Works whatever the original's status.
 */
async function replayDelivery(ctx: RouteContext): Promise<RouteResult> {
  const id = uuidParam(ctx.params.delivery_id, "delivery_id");
  const outcome = await ctx.services.store.replayWebhookDelivery({
    ...scopeOf(ctx),
    id,
    new_id: uuidv7(ctx.now),
    now: ctx.now,
  });
  if (outcome.kind === "not_found") throw webhookNotFound("webhook delivery", id, ctx);
  if (outcome.kind === "destination_unavailable") {
    throw new ApiError(
      "validation_error",
      outcome.reason === "deleted"
        ? "the delivery's destination was deleted; events cannot be replayed to it"
        : "the delivery's destination is disabled; enable it (PATCH enabled: true) and replay again",
      { details: { field: "destination_id", reason: `destination_${outcome.reason}` } },
    );
  }
  return { status: 201, data: deliveryView(outcome.delivery) };
}

/** Webhook deliveries: list (filter `status`), read, replay. */
export const webhookDeliveryRoutes: Route<RouteContext>[] = [
  { method: "GET", path: "/webhook-deliveries", scope: "webhooks:read", handle: listDeliveries },
  {
    method: "GET",
    path: "/webhook-deliveries/{delivery_id}",
    scope: "webhooks:read",
    handle: getDelivery,
  },
  {
    method: "POST",
    path: "/webhook-deliveries/{delivery_id}/replay",
    scope: "webhooks:write",
    handle: replayDelivery,
  },
];
