import { randomUUID } from "node:crypto";
import { StoreError, type WebhookDestination } from "@tminus/store";
import { readJsonBody } from "../body";
import { webhookConfig } from "../config";
import { ApiError, validationError } from "../errors";
import type { RouteContext } from "../handler";
import { readListQuery } from "../paging";
import type { Route, RouteResult } from "../router";
import { checkDestinationUrl } from "../webhooks/destination-url";
import { destinationCreateSchema, destinationUpdateSchema } from "../webhooks/schemas";
import { generateWebhookSecret } from "../webhooks/signing";
import { parseBody } from "../webhooks/validate";
import { destinationView } from "../webhooks/views";
import { newestFirstPage, scopeOf, uuidParam, webhookNotFound } from "./_webhook-common";

/** After a rotation the previous secret keeps signing this long (decisions.md). */
export const PREVIOUS_SECRET_TTL_MS = 24 * 3_600_000;

/** The destination of the path, or 404. */
async function loadDestination(ctx: RouteContext): Promise<WebhookDestination> {
  const id = uuidParam(ctx.params.destination_id, "destination_id");
  const { account_id, environment } = scopeOf(ctx);
  const found = await ctx.services.store.getWebhookDestination(account_id, environment, id);
  if (!found) throw webhookNotFound("webhook destination", id, ctx);
  return found;
}

async function createDestination(ctx: RouteContext): Promise<RouteResult> {
  const { store, config } = ctx.services;
  const settings = webhookConfig(config);
  const body = parseBody(
    destinationCreateSchema,
    await readJsonBody(ctx.req, config.max_body_bytes),
  );
  const url = checkDestinationUrl(body.url, settings);
  try {
    const created = await store.createWebhookDestination({
      destination: {
        id: randomUUID(),
        ...scopeOf(ctx),
        url,
        description: body.description ?? null,
        events: body.events ?? [],
        enabled: body.enabled ?? true,
        secret: generateWebhookSecret(),
        created_at: ctx.now,
      },
      max_destinations: settings.max_destinations,
    });
    // The only answers that show the secret: create and rotate-secret.
    return { status: 201, data: destinationView(created, ctx.now, true) };
  } catch (error) {
    if (error instanceof StoreError && error.code === "limit_reached") {
      throw new ApiError(
        "validation_error",
        `this environment already has the maximum of ${settings.max_destinations} webhook destinations; delete one first`,
        {
          details: {
            field: "destinations",
            reason: "limit_reached",
            limit: settings.max_destinations,
          },
        },
      );
    }
    throw error;
  }
}

async function listDestinations(ctx: RouteContext): Promise<RouteResult> {
  const { limit, cursor } = readListQuery(ctx.req.query, []);
  const { account_id, environment } = scopeOf(ctx);
  const { store, cursors } = ctx.services;
  const binding = [account_id, environment, ctx.auth.key.id, "webhook_destinations"].join("|");
  const after = cursor ? cursors.decode(cursor, binding) : undefined;
  const rows = await store.listWebhookDestinations({
    account_id,
    environment,
    after,
    limit: limit + 1,
  });
  return newestFirstPage(rows, limit, (d) => destinationView(d, ctx.now), cursors, binding);
}

async function getDestination(ctx: RouteContext): Promise<RouteResult> {
  return { data: destinationView(await loadDestination(ctx), ctx.now) };
}

async function updateDestination(ctx: RouteContext): Promise<RouteResult> {
  const { store, config } = ctx.services;
  const id = uuidParam(ctx.params.destination_id, "destination_id");
  const body = parseBody(
    destinationUpdateSchema,
    await readJsonBody(ctx.req, config.max_body_bytes),
  );
  const url =
    body.url === undefined ? undefined : checkDestinationUrl(body.url, webhookConfig(config));
  const updated = await store.updateWebhookDestination({
    ...scopeOf(ctx),
    id,
    patch: { ...body, url },
    now: ctx.now,
  });
  if (!updated) throw webhookNotFound("webhook destination", id, ctx);
  return { data: destinationView(updated, ctx.now) };
}

async function deleteDestination(ctx: RouteContext): Promise<RouteResult> {
  const id = uuidParam(ctx.params.destination_id, "destination_id");
  const deleted = await ctx.services.store.deleteWebhookDestination({
    ...scopeOf(ctx),
    id,
    now: ctx.now,
  });
  if (!deleted) throw webhookNotFound("webhook destination", id, ctx);
  return { data: { id, object: "webhook_destination", deleted: true } };
}

async function rotateSecret(ctx: RouteContext): Promise<RouteResult> {
  const id = uuidParam(ctx.params.destination_id, "destination_id");
  const body = await readJsonBody(ctx.req, ctx.services.config.max_body_bytes, { optional: true });
  if (body !== undefined) {
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      throw validationError("body", "rotate-secret takes no body (or an empty JSON object)");
    }
    const field = Object.keys(body)[0];
    if (field !== undefined)
      throw validationError(field, `${field} is not a field of rotate-secret`);
  }
  const rotated = await ctx.services.store.rotateWebhookSecret({
    ...scopeOf(ctx),
    id,
    secret: generateWebhookSecret(),
    previous_expires_at: ctx.now + PREVIOUS_SECRET_TTL_MS,
    now: ctx.now,
  });
  if (!rotated) throw webhookNotFound("webhook destination", id, ctx);
  return { data: destinationView(rotated, ctx.now, true) };
}

/** Webhook destinations: create, list, read, update, delete, rotate the signing secret. */
export const webhookDestinationRoutes: Route<RouteContext>[] = [
  {
    method: "POST",
    path: "/webhook-destinations",
    scope: "webhooks:write",
    handle: createDestination,
  },
  {
    method: "GET",
    path: "/webhook-destinations",
    scope: "webhooks:read",
    handle: listDestinations,
  },
  {
    method: "GET",
    path: "/webhook-destinations/{destination_id}",
    scope: "webhooks:read",
    handle: getDestination,
  },
  {
    method: "PATCH",
    path: "/webhook-destinations/{destination_id}",
    scope: "webhooks:write",
    handle: updateDestination,
  },
  {
    method: "DELETE",
    path: "/webhook-destinations/{destination_id}",
    scope: "webhooks:write",
    handle: deleteDestination,
  },
  {
    method: "POST",
    path: "/webhook-destinations/{destination_id}/rotate-secret",
    scope: "webhooks:write",
    handle: rotateSecret,
  },
];
