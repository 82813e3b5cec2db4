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

/** Webhook delivery settings (docs/webhooks.md). */
export interface WebhookConfig {
  /** Accept `http://` destination URLs (development); otherwise HTTPS only. */
  allow_http: boolean;
  /** Skip the SSRF address check, so loopback and private receivers work (development, tests). */
  allow_private_destinations: boolean;
  /** Time allowed for one attempt, connection to last byte, in ms. */
  timeout_ms: number;
  /** Live destinations per account and environment. */
  max_destinations: number;
  /** Waits before each retry, in seconds; after the last one fails the delivery is failed. */
  retry_delays_seconds: number[];
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
  /** Webhook delivery settings. */
  webhooks: WebhookConfig;
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
  webhooks?: Partial<WebhookConfig>;
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
  webhooks: {
    allow_http: false,
    allow_private_destinations: false,
    timeout_ms: 10_000,
    max_destinations: 20,
    // decisions.md: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then failed.
    retry_delays_seconds: [5, 300, 1800, 7200, 18000, 36000, 36000],
  },
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
  "webhooks",
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
    webhooks: resolveWebhookConfig(input.webhooks),
  };
}

const WEBHOOK_FIELDS = new Set(Object.keys(DEFAULT_CONFIG.webhooks));

function flag(value: unknown, path: string): boolean {
  if (typeof value !== "boolean") throw new ConfigError(`${path} must be true or false`);
  return value;
}

function intBetween(value: unknown, path: string, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${path} must be an integer from ${min} to ${max}`);
  }
  return value;
}

function resolveWebhookConfig(input: unknown): WebhookConfig {
  const d = DEFAULT_CONFIG.webhooks;
  if (input === undefined) return { ...d, retry_delays_seconds: [...d.retry_delays_seconds] };
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new ConfigError("config.webhooks must be an object");
  }
  for (const k of Object.keys(input)) {
    if (!WEBHOOK_FIELDS.has(k))
      throw new ConfigError(`config.webhooks.${k} is not a known setting`);
  }
  const w = input as Partial<Record<keyof WebhookConfig, unknown>>;
  const delays = w.retry_delays_seconds ?? d.retry_delays_seconds;
  // Fractions are allowed so tests and development can retry within a second.
  if (
    !Array.isArray(delays) ||
    delays.length > 20 ||
    !delays.every((s) => typeof s === "number" && Number.isFinite(s) && s > 0 && s <= 86_400)
  ) {
    throw new ConfigError(
      "config.webhooks.retry_delays_seconds must be a list of at most 20 numbers of seconds, each above 0 and at most 86400",
    );
  }
  return {
    allow_http: flag(w.allow_http ?? d.allow_http, "config.webhooks.allow_http"),
    allow_private_destinations: flag(
      w.allow_private_destinations ?? d.allow_private_destinations,
      "config.webhooks.allow_private_destinations",
    ),
    timeout_ms: intBetween(w.timeout_ms ?? d.timeout_ms, "config.webhooks.timeout_ms", 100, 60_000),
    max_destinations: intBetween(
      w.max_destinations ?? d.max_destinations,
      "config.webhooks.max_destinations",
      0,
      1000,
    ),
    retry_delays_seconds: [...(delays as number[])],
  };
}

/**
 * The webhook settings of a config. A caller may hand the handler an already-resolved config
 * built before webhooks existed; the defaults then apply.
 */
export function webhookConfig(config: TminusConfig): WebhookConfig {
  return config.webhooks ?? DEFAULT_CONFIG.webhooks;
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
