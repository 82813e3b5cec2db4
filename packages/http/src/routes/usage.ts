import { formatInstant } from "@tminus/core";
import { limitsFor } from "../config";
import { cycleAt } from "../cycle";
import type { RouteContext } from "../handler";
import type { Route } from "../router";

/** Share of the allowance at which `warning_threshold` is set. */
const WARNING_SHARE = 0.8;

async function getUsage(ctx: RouteContext) {
  const { account, key } = ctx.auth;
  const cycle = cycleAt(ctx.now);
  const limits = limitsFor(ctx.services.config, account.plan, key.environment);
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
export const usageRoutes: Route<RouteContext>[] = [
  { method: "GET", path: "/usage", scope: "usage:read", handle: getUsage },
];
