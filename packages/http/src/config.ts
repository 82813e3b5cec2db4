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

/** The operator's configuration (the JSON file of `tminus serve --config`). */
export interface TminusConfig {
  /** Limits of the sandbox environment, whatever the account's plan. */
  sandbox: PlanLimits;
  /** Production limits by plan name. */
  plans: Record<string, PlanLimits>;
  /** Plan given to accounts created without one. */
  default_plan: string;
  /** Public base URL of the service, used in URLs it prints and returns. */
  base_url: string;
  /** Days the request log is kept (GET /usage/requests). */
  request_log_retention_days: number;
  /** Hours an Idempotency-Key is remembered. */
  idempotency_ttl_hours: number;
  /** Largest accepted request body in bytes. */
  max_body_bytes: number;
}

/** Input shape of the config: every field optional, plans merged field by field. */
export interface TminusConfigInput {
  sandbox?: Partial<PlanLimits>;
  plans?: Record<string, Partial<PlanLimits>>;
  default_plan?: string;
  base_url?: string;
  request_log_retention_days?: number;
  idempotency_ttl_hours?: number;
  max_body_bytes?: number;
}

/** The defaults of decisions.md. */
export const DEFAULT_CONFIG: TminusConfig = {
  sandbox: { requests_per_minute: 30, new_timers_per_cycle: 100, max_keys: 1 },
  plans: {
    starter: { requests_per_minute: 300, new_timers_per_cycle: 1000, max_keys: 3 },
    growth: { requests_per_minute: 300, new_timers_per_cycle: 10000, max_keys: 10 },
  },
  default_plan: "starter",
  base_url: "http://localhost:8787",
  request_log_retention_days: 30,
  idempotency_ttl_hours: 24,
  max_body_bytes: 65536,
};

const LIMIT_FIELDS = ["requests_per_minute", "new_timers_per_cycle", "max_keys"] as const;
const TOP_FIELDS = new Set([
  "sandbox",
  "plans",
  "default_plan",
  "base_url",
  "request_log_retention_days",
  "idempotency_ttl_hours",
  "max_body_bytes",
  "$schema",
]);

/** A configuration file or object that does not fit the documented shape. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

function positiveInt(value: unknown, path: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw new ConfigError(`${path} must be a non-negative integer`);
  }
  return value;
}

function mergeLimits(base: PlanLimits, input: unknown, path: string): PlanLimits {
  if (input === undefined) return { ...base };
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new ConfigError(`${path} must be an object`);
  }
  const out = { ...base };
  for (const [k, v] of Object.entries(input)) {
    if (!(LIMIT_FIELDS as readonly string[]).includes(k)) {
      throw new ConfigError(`${path}.${k} is not a plan limit (${LIMIT_FIELDS.join(", ")})`);
    }
    out[k as (typeof LIMIT_FIELDS)[number]] = positiveInt(v, `${path}.${k}`);
  }
  return out;
}

/**
 * Validates a config object and merges it over the defaults. Unknown fields are errors, so a
 * typo in a config file fails loudly instead of silently keeping a default.
 */
export function resolveConfig(input: TminusConfigInput = {}): TminusConfig {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new ConfigError("config must be a JSON object");
  }
  for (const k of Object.keys(input)) {
    if (!TOP_FIELDS.has(k)) throw new ConfigError(`config.${k} is not a known setting`);
  }
  const plans: Record<string, PlanLimits> = {};
  for (const [name, limits] of Object.entries(DEFAULT_CONFIG.plans)) plans[name] = { ...limits };
  if (input.plans !== undefined) {
    if (typeof input.plans !== "object" || input.plans === null) {
      throw new ConfigError("config.plans must be an object");
    }
    for (const [name, limits] of Object.entries(input.plans)) {
      const base = plans[name] ?? DEFAULT_CONFIG.plans.starter!;
      plans[name] = mergeLimits(base, limits, `config.plans.${name}`);
    }
  }
  const defaultPlan = input.default_plan ?? DEFAULT_CONFIG.default_plan;
  if (!plans[defaultPlan])
    throw new ConfigError(`config.default_plan "${defaultPlan}" is not a plan`);
  const baseUrl = input.base_url ?? DEFAULT_CONFIG.base_url;
  try {
    new URL(baseUrl);
  } catch {
    throw new ConfigError("config.base_url must be an absolute URL");
  }
  return {
    sandbox: mergeLimits(DEFAULT_CONFIG.sandbox, input.sandbox, "config.sandbox"),
    plans,
    default_plan: defaultPlan,
    base_url: baseUrl.replace(/\/+$/, ""),
    request_log_retention_days: positiveInt(
      input.request_log_retention_days ?? DEFAULT_CONFIG.request_log_retention_days,
      "config.request_log_retention_days",
    ),
    idempotency_ttl_hours: positiveInt(
      input.idempotency_ttl_hours ?? DEFAULT_CONFIG.idempotency_ttl_hours,
      "config.idempotency_ttl_hours",
    ),
    max_body_bytes: positiveInt(
      input.max_body_bytes ?? DEFAULT_CONFIG.max_body_bytes,
      "config.max_body_bytes",
    ),
  };
}

/** The limits that apply to an account's plan in an environment. */
export function limitsFor(
  config: TminusConfig,
  plan: string,
  environment: Environment,
): PlanLimits {
  if (environment === "sandbox") return config.sandbox;
  return config.plans[plan] ?? config.plans[config.default_plan]!;
}
