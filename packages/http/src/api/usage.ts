import { formatInstant } from "@tminus/core";
import { limitsFor } from "../config";
import { cycleAt } from "../cycle";
import { responseSchemas } from "../schemas/registry";
import type { RouteContext } from "./context";
import { defineRoute } from "./define";

/** Share of the allowance at which `warning_threshold` is set. */
const WARNING_SHARE = 0.8;

async function getUsage(ctx: RouteContext) {
  const { account, key } = ctx.auth;
  const cycle = cycleAt(ctx.now);
  const limits = limitsFor(ctx.services.config, account.plan, key.environment);
  // Request counts are written in batches: this process's own (this request included) go first,
  // so a caller always sees its requests counted.
  await ctx.services.flushUsage();
  const used = await ctx.services.store.getUsage(account.id, key.environment, cycle.id);
  const starts_at = formatInstant(cycle.starts_at);
  const resets_at = formatInstant(cycle.resets_at);
  const limit = limits.new_timers_per_cycle;
  return {
    data: {
      object: "usage",
      environment: key.environment,
      plan: key.environment === "sandbox" ? "sandbox" : account.plan,
      cycle: { id: cycle.id, starts_at, resets_at },
      metrics: [
        {
          metric: "new_timers",
          total: used.new_timers,
          limit,
          remaining: Math.max(0, limit - used.new_timers),
          warning_threshold: Math.floor(limit * WARNING_SHARE),
          starts_at,
          resets_at,
        },
        {
          metric: "api_requests",
          total: used.api_requests,
          limit: "unlimited",
          remaining: "unlimited",
          // Nothing to warn about for an unlimited metric: 0 means "no threshold".
          warning_threshold: 0,
          starts_at,
          resets_at,
        },
      ],
    },
  };
}

/** GET /usage: the allowance and request counts of the key's account and environment. */
export const usageRoutes = [
  defineRoute({
    method: "GET",
    path: "/usage",
    // The specification: "A 200 confirms the key and shows its environment", for every key.
    scope: null,
    operationId: "getUsage",
    summary: "Read usage",
    description:
      "The allowance and request counts of the key's account and environment in the current billing cycle (the calendar month in UTC). Cheap and creates nothing: a 200 confirms the key and shows its environment.",
    tag: "Usage",
    success: {
      status: 200,
      schema: responseSchemas.UsageResponse,
      description: "The usage object.",
    },
    handle: getUsage,
  }),
];
