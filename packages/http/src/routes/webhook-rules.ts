import { randomUUID } from "node:crypto";
import { StoreError } from "@tminus/store";
import { readJsonBody } from "../body";
import { ApiError, validationError } from "../errors";
import type { RouteContext } from "../handler";
import { readListQuery } from "../paging";
import type { Route, RouteResult } from "../router";
import { MAX_RULES_PER_TIMER, ruleCreateSchema } from "../webhooks/schemas";
import { parseBody } from "../webhooks/validate";
import { ruleView } from "../webhooks/views";
import { loadTimer } from "./_timer-common";
import { newestFirstPage, uuidParam } from "./_webhook-common";

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

async function createRule(ctx: RouteContext): Promise<RouteResult> {
  const timer = await loadTimer(ctx);
  const { store, config } = ctx.services;
  const body = parseBody(ruleCreateSchema, await readJsonBody(ctx.req, config.max_body_bytes));
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
  const binding = [
    timer.account_id,
    timer.environment,
    ctx.auth.key.id,
    "webhook_rules",
    timer.id,
  ].join("|");
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
export const webhookRuleRoutes: Route<RouteContext>[] = [
  {
    method: "POST",
    path: "/timers/{timer_id}/webhook-rules",
    scope: "webhooks:write",
    handle: createRule,
  },
  {
    method: "GET",
    path: "/timers/{timer_id}/webhook-rules",
    scope: "webhooks:read",
    handle: listRules,
  },
  {
    method: "DELETE",
    path: "/timers/{timer_id}/webhook-rules/{rule_id}",
    scope: "webhooks:write",
    handle: deleteRule,
  },
];
