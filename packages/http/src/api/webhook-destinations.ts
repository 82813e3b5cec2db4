import { randomUUID } from "node:crypto";
import { StoreError, type WebhookDestination } from "@tminus/store";
import { generateWebhookSecret } from "@tminus/webhooks";
import { z } from "zod";
import { webhookConfig } from "../config";
import { validationError } from "../errors";
import { cursorBinding } from "../paging";
import { requestSchemas, responseSchemas } from "../schemas/registry";
import {
  DESCRIPTION_MAX,
  type destinationCreateSchema,
  type destinationUpdateSchema,
  URL_MAX,
} from "../schemas/webhook-requests";
import {
  BODY_NOT_JSON,
  DESTINATION_ID_ERRORS,
  DocumentedError,
  URL_NOT_HTTPS,
  URL_PRIVATE,
} from "../vocabulary/error-cases";
import { DESTINATION_ID, PAGE_QUERY, type PageQuery } from "../vocabulary/parameters";
import { SIGNING } from "../vocabulary/webhook-events";
import { newestFirstPage, scopeOf, webhookNotFound } from "./_webhook-common";
import { checkDestinationUrl } from "./_webhook-url";
import { destinationView } from "./_webhook-views";
import { readJsonBody } from "./body";
import type { RouteContext, RouteResult } from "./context";
import { defineRoute } from "./define";

/** After a rotation the previous secret keeps signing this long (decisions.md). */
export const PREVIOUS_SECRET_TTL_MS = 24 * 3_600_000;

const DESTINATION_PATH = z.object({ destination_id: DESTINATION_ID });
type DestinationContext<B = unknown> = RouteContext<B, z.output<typeof DESTINATION_PATH>>;

/** The environment has as many destinations as the operator allows. */
const DESTINATION_LIMIT = new DocumentedError(
  "validation_error",
  (limit: number) => ({
    message: `this environment already has the maximum of ${limit} webhook destinations; delete one first`,
    details: { field: "destinations", reason: "limit_reached", limit },
  }),
  { example: [20], name: "destination_limit" },
);

/** The destination of the path, or 404. */
async function loadDestination(ctx: DestinationContext): Promise<WebhookDestination> {
  const id = ctx.params.destination_id;
  const { account_id, environment } = scopeOf(ctx);
  const found = await ctx.services.store.getWebhookDestination(account_id, environment, id);
  if (!found) throw webhookNotFound(DESTINATION_ID_ERRORS, id, ctx);
  return found;
}

async function createDestination(
  ctx: RouteContext<z.output<typeof destinationCreateSchema>>,
): Promise<RouteResult> {
  const { store, config } = ctx.services;
  const settings = webhookConfig(config);
  const body = await ctx.body();
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
      throw DESTINATION_LIMIT.error(settings.max_destinations);
    }
    throw error;
  }
}

async function listDestinations(
  ctx: RouteContext<unknown, unknown, PageQuery>,
): Promise<RouteResult> {
  const { limit, cursor } = ctx.query;
  const { account_id, environment } = scopeOf(ctx);
  const { store, cursors } = ctx.services;
  const binding = cursorBinding(ctx.auth, "webhook_destinations");
  const after = cursor ? cursors.decode(cursor, binding) : undefined;
  const rows = await store.listWebhookDestinations({
    account_id,
    environment,
    after,
    limit: limit + 1,
  });
  return newestFirstPage(rows, limit, (d) => destinationView(d, ctx.now), cursors, binding);
}

async function getDestination(ctx: DestinationContext): Promise<RouteResult> {
  return { data: destinationView(await loadDestination(ctx), ctx.now) };
}

async function updateDestination(
  ctx: DestinationContext<z.output<typeof destinationUpdateSchema>>,
): Promise<RouteResult> {
  const { store, config } = ctx.services;
  const id = ctx.params.destination_id;
  const body = await ctx.body();
  const url =
    body.url === undefined ? undefined : checkDestinationUrl(body.url, webhookConfig(config));
  const updated = await store.updateWebhookDestination({
    ...scopeOf(ctx),
    id,
    patch: { ...body, url },
    now: ctx.now,
  });
  if (!updated) throw webhookNotFound(DESTINATION_ID_ERRORS, id, ctx);
  return { data: destinationView(updated, ctx.now) };
}

async function deleteDestination(ctx: DestinationContext): Promise<RouteResult> {
  const id = ctx.params.destination_id;
  const deleted = await ctx.services.store.deleteWebhookDestination({
    ...scopeOf(ctx),
    id,
    now: ctx.now,
  });
  if (!deleted) throw webhookNotFound(DESTINATION_ID_ERRORS, id, ctx);
  return { data: { id, object: "webhook_destination", deleted: true } };
}

async function rotateSecret(ctx: DestinationContext): Promise<RouteResult> {
  const id = ctx.params.destination_id;
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
  if (!rotated) throw webhookNotFound(DESTINATION_ID_ERRORS, id, ctx);
  return { data: destinationView(rotated, ctx.now, true) };
}

/** Webhook destinations: create, list, read, update, delete, rotate the signing secret. */
export const webhookDestinationRoutes = [
  defineRoute({
    method: "POST",
    path: "/webhook-destinations",
    scope: "webhooks:write",
    operationId: "createWebhookDestination",
    summary: "Register a webhook destination",
    description: `Registers a receiver of events in the key's environment. The answer is the only place besides rotate-secret that shows the signing secret (\`whsec_…\`). ${SIGNING} The URL must be \`https://\` (the operator may allow \`http://\`), at most ${URL_MAX} characters, without credentials or fragment; loopback, private, link-local, unique-local, multicast, reserved, metadata and IPv4-mapped addresses are refused here when written as such, and at every attempt after DNS resolution, unless the operator allows private destinations. The number of destinations per environment is limited by the operator (\`webhooks.max_destinations\`, default 20).`,
    tag: "Webhooks",
    body: {
      schema: requestSchemas.WebhookDestinationCreate,
      required: true,
      description: "The receiver's URL, an optional description and optional change events.",
      example: {
        url: "https://api.example.com/webhooks/tminus",
        description: "Order service",
        events: ["timer.created"],
      },
    },
    success: {
      status: 201,
      schema: responseSchemas.WebhookDestinationSecretResponse,
      description: "The destination with its signing secret, shown once.",
    },
    errors: [
      { code: "missing_field", message: "url is required", details: { field: "url" } },
      URL_NOT_HTTPS,
      URL_PRIVATE,
      {
        code: "validation_error",
        name: "description_too_long",
        message: `description must be at most ${DESCRIPTION_MAX} characters long`,
        details: { field: "description" },
      },
      DESTINATION_LIMIT,
      BODY_NOT_JSON,
    ],

    handle: createDestination,
  }),
  defineRoute({
    method: "GET",
    path: "/webhook-destinations",
    scope: "webhooks:read",
    operationId: "listWebhookDestinations",
    summary: "List webhook destinations",
    description: "The environment's destinations, newest first. Secrets are never listed.",
    tag: "Webhooks",
    query: PAGE_QUERY,
    success: {
      status: 200,
      schema: responseSchemas.WebhookDestinationList,
      description: "A page of destinations.",
    },

    handle: listDestinations,
  }),
  defineRoute({
    method: "GET",
    path: "/webhook-destinations/{destination_id}",
    params: DESTINATION_PATH,
    scope: "webhooks:read",
    operationId: "getWebhookDestination",
    summary: "Read a webhook destination",
    description: "One destination, without its secret.",
    tag: "Webhooks",
    success: {
      status: 200,
      schema: responseSchemas.WebhookDestinationResponse,
      description: "The destination.",
    },

    handle: getDestination,
  }),
  defineRoute({
    method: "PATCH",
    path: "/webhook-destinations/{destination_id}",
    params: DESTINATION_PATH,
    scope: "webhooks:write",
    operationId: "updateWebhookDestination",
    summary: "Update a webhook destination",
    description:
      "Replaces the fields sent (`url`, `description`, `events`, `enabled`), validated as on create. Disabling stops new deliveries and fails pending ones at their next attempt; enabling clears `disabled_reason` (also after a 410).",
    tag: "Webhooks",
    body: {
      schema: requestSchemas.WebhookDestinationUpdate,
      required: true,
      description: "The fields to change.",
      example: { enabled: false },
    },
    success: {
      status: 200,
      schema: responseSchemas.WebhookDestinationResponse,
      description: "The updated destination.",
    },
    errors: [URL_NOT_HTTPS, URL_PRIVATE, BODY_NOT_JSON],

    handle: updateDestination,
  }),
  defineRoute({
    method: "DELETE",
    path: "/webhook-destinations/{destination_id}",
    params: DESTINATION_PATH,
    scope: "webhooks:write",
    operationId: "deleteWebhookDestination",
    summary: "Delete a webhook destination",
    description:
      "Removes the destination and the rules that name it. Its deliveries stay listed; pending ones fail at their next attempt with `error: destination_deleted`.",
    tag: "Webhooks",
    success: {
      status: 200,
      schema: responseSchemas.DeletedWebhookDestinationResponse,
      description: "The id of the deleted destination.",
    },

    handle: deleteDestination,
  }),
  defineRoute({
    method: "POST",
    path: "/webhook-destinations/{destination_id}/rotate-secret",
    params: DESTINATION_PATH,
    scope: "webhooks:write",
    operationId: "rotateWebhookSecret",
    summary: "Rotate a destination's signing secret",
    description:
      "Creates a new secret and shows it once. For 24 hours the previous secret signs too (two space-separated `v1,` signatures), so receivers can switch without losing events; a second rotation within the window drops the oldest secret. Takes no body.",
    tag: "Webhooks",
    success: {
      status: 200,
      schema: responseSchemas.WebhookDestinationSecretResponse,
      description: "The destination with its new secret, shown once.",
    },
    errors: [BODY_NOT_JSON],

    handle: rotateSecret,
  }),
];
