import type { Environment } from "@tminus/store";

/** Limits of one plan (or of the sandbox environment). */
export interface PlanLimits {
  /** Fixed one-minute window, counted per key and per account; the tighter one answers. */
  requests_per_minute: number;
  /** New timers (creates and duplicates) per billing cycle. */
  new_timers_per_cycle: number;
  /** Live API keys per account in the environment. */
  max_keys: number;
}

/**
 * The part of a resolved operator configuration the admin API reads. `@tminus/http`'s
 * `resolveConfig` returns a superset, so its result is passed as is.
 */
export interface AdminConfig {
  /** Limits of the sandbox environment, whatever the account's plan. */
  sandbox: PlanLimits;
  /** Production limits by plan name. */
  plans: Record<string, PlanLimits>;
  /** Plan given to accounts created without one. */
  default_plan: string;
  /** Public base URL, for absolute password links; null gives relative ones. */
  base_url: string | null;
  /** Where the dashboard is mounted and how long a password link works. */
  dashboard: { path: string; link_hours: number };
}

/** The limits that apply to an account's plan in an environment. */
export function limitsFor(
  config: Pick<AdminConfig, "sandbox" | "plans" | "default_plan">,
  plan: string,
  environment: Environment,
): PlanLimits {
  if (environment === "sandbox") return config.sandbox;
  return config.plans[plan] ?? config.plans[config.default_plan]!;
}
