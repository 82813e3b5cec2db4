import { randomUUID } from "node:crypto";
import { StoreError } from "@tminus/store";
import { z } from "zod";
import { validationError } from "../errors";
import { requestSchemas, responseSchemas } from "../schemas/registry";
import { MAX_RULES_PER_TIMER, type ruleCreateSchema } from "../schemas/webhook-requests";
import {
  BODY_NOT_JSON,
  DocumentedError,
  EXAMPLE_ID,
  fieldError,
  RULE_ID_ERRORS,
  TIMER_NOT_FOUND,
} from "../vocabulary/error-cases";
import { PAGE_QUERY, type PageQuery, RULE_ID, TIMER_ID, timerPath } from "../vocabulary/parameters";
import { loadTimer, type TimerRouteContext, timerListStart } from "./_timer-common";
import { newestFirstPage } from "./_webhook-common";
import { ruleView } from "./_webhook-views";
import type { RouteContext, RouteResult } from "./context";
import { defineRoute } from "./define";

const RULE_PATH = z.object({ timer_id: TIMER_ID, rule_id: RULE_ID });

const MISSING_OFFSET = fieldError(
  "missing_field",
  "missing_offset",
  "offset_seconds",
  "offset_seconds is required with timer.threshold: how many seconds before the end to fire",
);

/** `destination_id` names no destination of the timer's account and environment. */
const UNKNOWN_DESTINATION = new DocumentedError(
  "validation_error",
  (environment: string, id: string) => ({
    message: `destination_id must name a webhook destination of this ${environment} account; ${id} is not one`,
    details: { field: "destination_id" },
  }),
  { example: ["production", EXAMPLE_ID], name: "unknown_destination" },
);

const RULE_LIMIT = new DocumentedError(
  "validation_error",
  () => ({
    message: `this timer already has the maximum of ${MAX_RULES_PER_TIMER} webhook rules; delete one first`,
    details: { field: "rules", reason: "limit_reached", limit: MAX_RULES_PER_TIMER },
  }),
  { example: [], name: "rule_limit" },
);

function checkOffset(events: readonly string[], offset: number | undefined): void {
  const threshold = events.includes("timer.threshold");
  if (threshold && offset === undefined) throw MISSING_OFFSET.error();
  if (!threshold && offset !== undefined) {
    throw validationError(
      "offset_seconds",
      "offset_seconds is only allowed when events include timer.threshold",
    );
  }
}

async function createRule(
  ctx: TimerRouteContext<z.output<typeof ruleCreateSchema>>,
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
      throw RULE_LIMIT.error();
    }
    throw error;
  }
  if (outcome.kind === "timer_not_found") {
    throw TIMER_NOT_FOUND.error(timer.id, timer.environment);
  }
  if (outcome.kind === "destination_not_found") {
    // A destination of the other environment (or account) does not exist from this key's view.
    throw UNKNOWN_DESTINATION.error(timer.environment, rule.destination_id);
  }
  return { status: 201, data: ruleView(outcome.rule) };
}

async function listRules(ctx: TimerRouteContext<unknown, PageQuery>): Promise<RouteResult> {
  const { limit } = ctx.query;
  const { of, binding, after } = await timerListStart(ctx, "webhook_rules");
  const { store, cursors } = ctx.services;
  const rows = await store.listWebhookRules({ ...of, after, limit: limit + 1 });
  return newestFirstPage(rows, limit, ruleView, cursors, binding);
}

async function deleteRule(
  ctx: RouteContext<unknown, z.output<typeof RULE_PATH>>,
): Promise<RouteResult> {
  const timer = await loadTimer(ctx);
  const id = ctx.params.rule_id;
  const deleted = await ctx.services.store.deleteWebhookRule({
    account_id: timer.account_id,
    environment: timer.environment,
    timer_id: timer.id,
    id,
  });
  if (!deleted) throw RULE_ID_ERRORS.notFound.error(id, `on timer ${timer.id}`);
  return { data: { id, object: "webhook_rule", deleted: true } };
}

/** Webhook rules of one timer: create, list, delete. */
export const webhookRuleRoutes = [
  defineRoute({
    method: "POST",
    path: "/timers/{timer_id}/webhook-rules",
    params: timerPath,
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
      MISSING_OFFSET,
      { code: "missing_field", message: "events is required", details: { field: "events" } },
      UNKNOWN_DESTINATION,
      RULE_LIMIT,
      BODY_NOT_JSON,
    ],

    handle: createRule,
  }),
  defineRoute({
    method: "GET",
    path: "/timers/{timer_id}/webhook-rules",
    params: timerPath,
    scope: "webhooks:read",
    operationId: "listWebhookRules",
    summary: "List a timer's webhook rules",
    description: "The rules attached to the timer, newest first.",
    tag: "Webhooks",
    query: PAGE_QUERY,
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
    params: RULE_PATH,
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
