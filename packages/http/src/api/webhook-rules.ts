import { randomUUID } from "node:crypto";
import { StoreError } from "@tminus/store";
import type { z } from "zod";
import { ApiError, validationError } from "../errors";
import { BODY_NOT_JSON } from "../openapi/error-cases";
import { cursorBinding, readListQuery } from "../paging";
import { requestSchemas, responseSchemas } from "../schemas/registry";
import { MAX_RULES_PER_TIMER, type ruleCreateSchema } from "../schemas/webhook-requests";
import { loadTimer } from "./_timer-common";
import { newestFirstPage, uuidParam } from "./_webhook-common";
import { ruleView } from "./_webhook-views";
import type { RouteContext, RouteResult } from "./context";
import { defineRoute } from "./define";

function checkOffset(events: readonly string[], offset: number | undefined): void {
  const threshold = events.includes("timer.threshold");
  if (threshold && offset === undefined) {
    throw new ApiError(
      "missing_field",
      "offset_seconds is required with timer.threshold: how many seconds before the end to fire",
      { details: { field: "offset_seconds" } },
    );
  }
  if (!threshold && offset !== undefined) {
    throw validationError(
      "offset_seconds",
      "offset_seconds is only allowed when events include timer.threshold",
    );
  }
}

async function createRule(
  ctx: RouteContext<z.output<typeof ruleCreateSchema>>,
): Promise<RouteResult> {
  const timer = await loadTimer(ctx);
  const { store } = ctx.services;
  const body = await ctx.body();
  checkOffset(body.events, body.offset_seconds);
  const rule = {
    id: randomUUID(),
    account_id: timer.account_id,
    environment: timer.environment,
    timer_id: timer.id,
    destination_id: body.destination_id.toLowerCase(),
    events: body.events,
    offset_seconds: body.offset_seconds ?? null,
    created_at: ctx.now,
  };
  let outcome: Awaited<ReturnType<typeof store.createWebhookRule>>;
  try {
    outcome = await store.createWebhookRule({ rule, max_rules_per_timer: MAX_RULES_PER_TIMER });
  } catch (error) {
    if (error instanceof StoreError && error.code === "limit_reached") {
      throw new ApiError(
        "validation_error",
        `this timer already has the maximum of ${MAX_RULES_PER_TIMER} webhook rules; delete one first`,
        { details: { field: "rules", reason: "limit_reached", limit: MAX_RULES_PER_TIMER } },
      );
    }
    throw error;
  }
  if (outcome.kind === "timer_not_found") {
    throw new ApiError("not_found", `no timer ${timer.id} in this ${timer.environment} account`);
  }
  if (outcome.kind === "destination_not_found") {
    // A destination of the other environment (or account) does not exist from this key's view.
    throw validationError(
      "destination_id",
      `destination_id must name a webhook destination of this ${timer.environment} account; ${rule.destination_id} is not one`,
    );
  }
  return { status: 201, data: ruleView(outcome.rule) };
}

async function listRules(ctx: RouteContext): Promise<RouteResult> {
  const { limit, cursor } = readListQuery(ctx.req.query, []);
  const timer = await loadTimer(ctx);
  const { store, cursors } = ctx.services;
  const binding = cursorBinding(ctx.auth, "webhook_rules", timer.id);
  const after = cursor ? cursors.decode(cursor, binding) : undefined;
  const rows = await store.listWebhookRules({
    account_id: timer.account_id,
    environment: timer.environment,
    timer_id: timer.id,
    after,
    limit: limit + 1,
  });
  return newestFirstPage(rows, limit, ruleView, cursors, binding);
}

async function deleteRule(ctx: RouteContext): Promise<RouteResult> {
  const timer = await loadTimer(ctx);
  const id = uuidParam(ctx.params.rule_id, "rule_id");
  const deleted = await ctx.services.store.deleteWebhookRule({
    account_id: timer.account_id,
    environment: timer.environment,
    timer_id: timer.id,
    id,
  });
  if (!deleted) throw new ApiError("not_found", `no webhook rule ${id} on timer ${timer.id}`);
  return { data: { id, object: "webhook_rule", deleted: true } };
}

/** Webhook rules of one timer: create, list, delete. */
export const webhookRuleRoutes = [
  defineRoute({
    method: "POST",
    path: "/timers/{timer_id}/webhook-rules",
    scope: "webhooks:write",
    operationId: "createWebhookRule",
    summary: "Add a webhook rule to a timer",
    description: `Sends the listed event types of this timer to a destination of the same account and environment. \`timer.ended\` fires at the end (a fixed timer's deadline moved by pauses and extensions, a duration timer's end, a personalized timer's fallback deadline, each occurrence of a recurring timer); \`timer.threshold\` fires \`offset_seconds\` before it. Time-based events fire within 2 seconds while the service runs; those missed while it was down fire at once after a restart, each once. Ends before the rule's creation never fire, and archived timers fire nothing. Per-recipient events are opt-in here only: \`viewer.started\` at a recipient's first view (a duration timer's URL with \`r\`, or a personalized URL), \`viewer.ended\` when that recipient's own countdown reaches zero; once per recipient, for recipients first seen after the rule exists, at most \`webhooks.max_viewer_events_per_timer_day\` recipients per timer per UTC day. At most ${MAX_RULES_PER_TIMER} rules per timer.`,
    tag: "Webhooks",
    body: {
      schema: requestSchemas.WebhookRuleCreate,
      required: true,
      description: "The destination, the event types and the threshold offset.",
      example: {
        destination_id: "0b6c3c1e-3f0a-4d5e-9a43-8f1b2c3d4e5f",
        events: ["timer.ended", "timer.threshold"],
        offset_seconds: 300,
      },
    },
    success: { status: 201, schema: responseSchemas.WebhookRuleResponse, description: "The rule." },
    errors: [
      {
        code: "missing_field",
        name: "missing_offset",
        message:
          "offset_seconds is required with timer.threshold: how many seconds before the end to fire",
        details: { field: "offset_seconds" },
      },
      { code: "missing_field", message: "events is required", details: { field: "events" } },
      {
        code: "validation_error",
        name: "unknown_destination",
        message:
          "destination_id must name a webhook destination of this production account; 0b6c3c1e-3f0a-4d5e-9a43-8f1b2c3d4e5f is not one",
        details: { field: "destination_id" },
      },
      {
        code: "validation_error",
        name: "rule_limit",
        message: `this timer already has the maximum of ${MAX_RULES_PER_TIMER} webhook rules; delete one first`,
        details: { field: "rules", reason: "limit_reached", limit: MAX_RULES_PER_TIMER },
      },
      BODY_NOT_JSON,
    ],

    handle: createRule,
  }),
  defineRoute({
    method: "GET",
    path: "/timers/{timer_id}/webhook-rules",
    scope: "webhooks:read",
    operationId: "listWebhookRules",
    summary: "List a timer's webhook rules",
    description: "The rules attached to the timer, newest first.",
    tag: "Webhooks",
    list: true,
    success: {
      status: 200,
      schema: responseSchemas.WebhookRuleList,
      description: "A page of rules.",
    },

    handle: listRules,
  }),
  defineRoute({
    method: "DELETE",
    path: "/timers/{timer_id}/webhook-rules/{rule_id}",
    scope: "webhooks:write",
    operationId: "deleteWebhookRule",
    summary: "Delete a webhook rule",
    description: "Stops the rule; deliveries it already queued are kept.",
    tag: "Webhooks",
    success: {
      status: 200,
      schema: responseSchemas.DeletedWebhookRuleResponse,
      description: "The id of the deleted rule.",
    },

    handle: deleteRule,
  }),
];
