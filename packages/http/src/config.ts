import { availableParallelism } from "node:os";
import type { PlanLimits } from "@tminus/admin";
import {
  DEFAULT_WEBHOOK_CONFIG,
  resolveWebhookConfig,
  type WebhookConfig,
  WebhookConfigError,
} from "@tminus/webhooks";
import { MAX_MEMORY_MB, MIN_MEMORY_MB, memoryPlan, serverThreads } from "./memory-budget";
import { allowedHostsCheck } from "./transport/allowed-hosts";

export { limitsFor, type PlanLimits } from "@tminus/admin";
export type { WebhookConfig };

/** How email images are rendered (docs/render.md). */
export interface RenderConfig {
  /**
   * The memory the server may use, in MB (272 to 65,536), or null: no budget, the fixed
   * defaults. A budget chooses the render threads, their heap limits, whether stills get a thread
   * of their own, the byte-bounded caches and the queue (docs/configuration.md, "A memory
   * budget"); a setting given explicitly next to it wins.
   */
  memory_mb: number | null;
  /** V8 heap limit (old generation) of each render thread, in MB; 0: Node's default. */
  thread_heap_mb: number;
  /** V8 young generation of each render thread, in MB; 0: Node's default. */
  thread_young_mb: number;
  /**
   * Stills (one frame, drawn when the pool is full or an image is late) get a render thread of
   * their own; false: they go ahead of every waiting image on the pool's threads.
   */
  still_thread: boolean;
  /**
   * Worker threads drawing images off the event loop (at nice 10, below it); null: one per
   * CPU (1 to 4);
   * 0: draw on the event loop (small deployments, tests).
   */
  threads: number | null;
  /** Images that may wait for a thread; past this, image routes answer a still (one frame). */
  max_queue: number;
  /** Each thread's glyph-atlas cache, in MiB. */
  atlas_cache_mb: number;
  /** Each thread's encoded-frame cache, in MiB. */
  frame_cache_mb: number;
  /** Finished images kept in memory to answer the same image within its second, in MiB. */
  image_cache_mb: number;
  /** How long an image that had to queue may take before a still answers instead; 0: no limit. */
  max_wait_ms: number;
  /** Stills (one frame, drawn while the pool is full) kept per look, size and second, in MiB. */
  still_cache_mb: number;
  /** Event-loop delay in ms past which hosted pages and embeds answer `503 overloaded`; 0 never. */
  page_shed_delay_ms: number;
  /**
   * Seconds a shared cache (a CDN, a reverse proxy) may keep an image that is the same for
   * every recipient (`Cache-Control: public, s-maxage=N`); 0: no image is shared (docs/deploy.md).
   */
  shared_cache_seconds: number;
}

/** The browser dashboard (docs/dashboard.md). */
export interface DashboardConfig {
  /** Serve the dashboard at all (default true). */
  enabled: boolean;
  /** Where it is served, under the handler's mount prefix (default `/dashboard`). */
  path: string;
  /** How long a sign-in lasts, in hours (default 12). */
  session_hours: number;
  /** How long a set-password link works, in hours (default 72). */
  link_hours: number;
  /** Sign-in attempts per email in 15 minutes before further ones are refused (default 10). */
  sign_in_attempts_per_15_minutes: number;
}

/** Counting of public views (docs/analytics.md). */
export interface AnalyticsConfig {
  /** Count public views at all; false writes nothing (and the analytics routes read zeros). */
  enabled: boolean;
  /** Days view counts and viewer sets are kept before housekeeping purges them. */
  retention_days: number;
}

/**
 * Bounds of the in-memory caches that are not bounded in bytes, in entries
 * (docs/configuration.md, "Caches and memory"). Each starts over when full.
 */
export interface CachesConfig {
  /** API keys (with their accounts) found by hash, per process. */
  api_keys: number;
  /** Timers read by id (API and public routes), per process. */
  timers: number;
  /** Viewers' stored first views (duration timers started by the first open). */
  first_views: number;
  /** (timer, recipient) pairs already offered to the per-recipient webhook events. */
  viewer_events: number;
  /** Analytics viewer marks remembered as written, so a repeat viewer costs no write. */
  analytics_viewers: number;
}

/** The operator's configuration (the JSON file of `tminus serve --config`). */
export interface TminusConfig {
  /** Limits of the sandbox environment, whatever the account's plan. */
  sandbox: PlanLimits;
  /** Production limits by plan name. */
  plans: Record<string, PlanLimits>;
  /** Plan given to accounts created without one. */
  default_plan: string;
  /**
   * Public base URL of the service, used in the absolute URLs it returns. Null: each request's
   * own origin and mount prefix (see `createHandler`'s `trustProxy` and `basePath`).
   */
  base_url: string | null;
  /**
   * Without `base_url`: the hosts the service answers for (names, `name:port`, `[IPv6]`,
   * `.domain`); other hosts get 400. Null: every host (`tminus serve` then allows loopback
   * names and its listen address).
   */
  allowed_hosts: string[] | null;
  /** Build URLs from `Forwarded` / `X-Forwarded-*` headers: only behind a proxy you run. */
  trust_proxy: boolean;
  /** Days the request log is kept (GET /usage/requests). */
  request_log_retention_days: number;
  /** Hours an Idempotency-Key is remembered. */
  idempotency_ttl_hours: number;
  /** Largest accepted request body in bytes. */
  max_body_bytes: number;
  /** Webhook delivery settings. */
  webhooks: WebhookConfig;
  /** Image rendering. */
  render: RenderConfig;
  /** The browser dashboard. */
  dashboard: DashboardConfig;
  /** Counting of public views. */
  analytics: AnalyticsConfig;
  /** Bounds of the in-memory caches, in entries. */
  caches: CachesConfig;
  /** Uploaded fonts and images. */
  assets: AssetsConfig;
}

/** Limits of uploads (POST /assets), per account and environment. */
export interface AssetsConfig {
  /** Files (fonts and images together) one account may keep in one environment. */
  max_files: number;
  /** Bytes of one font file; at most 2 MiB. */
  max_font_bytes: number;
  /** Bytes of one image file; at most 8 MiB. */
  max_image_bytes: number;
}

/** Input shape of the config: every field optional, plans merged field by field. */
export interface TminusConfigInput {
  sandbox?: Partial<PlanLimits>;
  plans?: Record<string, Partial<PlanLimits>>;
  default_plan?: string;
  base_url?: string | null;
  allowed_hosts?: string[] | null;
  trust_proxy?: boolean;
  request_log_retention_days?: number;
  idempotency_ttl_hours?: number;
  max_body_bytes?: number;
  webhooks?: Partial<WebhookConfig>;
  render?: Partial<RenderConfig>;
  dashboard?: Partial<DashboardConfig>;
  analytics?: Partial<AnalyticsConfig>;
  caches?: Partial<CachesConfig>;
  assets?: Partial<AssetsConfig>;
}

/** The defaults of decisions.md. */
export const DEFAULT_CONFIG: TminusConfig = {
  sandbox: { requests_per_minute: 30, new_timers_per_cycle: 100, max_keys: 1 },
  plans: {
    starter: { requests_per_minute: 300, new_timers_per_cycle: 1000, max_keys: 3 },
    growth: { requests_per_minute: 300, new_timers_per_cycle: 10000, max_keys: 10 },
  },
  default_plan: "starter",
  base_url: null,
  allowed_hosts: null,
  trust_proxy: false,
  request_log_retention_days: 30,
  idempotency_ttl_hours: 24,
  max_body_bytes: 65536,
  webhooks: {
    ...DEFAULT_WEBHOOK_CONFIG,
    retry_delays_seconds: [...DEFAULT_WEBHOOK_CONFIG.retry_delays_seconds],
  },
  render: {
    memory_mb: null,
    thread_heap_mb: 0,
    thread_young_mb: 0,
    still_thread: true,
    threads: null,
    max_queue: 64,
    atlas_cache_mb: 32,
    frame_cache_mb: 8,
    image_cache_mb: 16,
    max_wait_ms: 2000,
    still_cache_mb: 4,
    page_shed_delay_ms: 100,
    shared_cache_seconds: 0,
  },
  dashboard: {
    enabled: true,
    path: "/dashboard",
    session_hours: 12,
    link_hours: 72,
    sign_in_attempts_per_15_minutes: 10,
  },
  analytics: { enabled: true, retention_days: 90 },
  caches: {
    api_keys: 10_000,
    timers: 10_000,
    first_views: 50_000,
    viewer_events: 50_000,
    analytics_viewers: 100_000,
  },
  assets: { max_files: 50, max_font_bytes: 2 * 1024 * 1024, max_image_bytes: 2 * 1024 * 1024 },
};

const LIMIT_FIELDS = ["requests_per_minute", "new_timers_per_cycle", "max_keys"] as const;
const TOP_FIELDS = new Set([
  "sandbox",
  "plans",
  "default_plan",
  "base_url",
  "allowed_hosts",
  "trust_proxy",
  "request_log_retention_days",
  "idempotency_ttl_hours",
  "max_body_bytes",
  "webhooks",
  "render",
  "dashboard",
  "analytics",
  "caches",
  "assets",
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

/** The fields of an optional section of the config (none when it is absent). */
function sectionFields(input: unknown, path: string): [string, unknown][] {
  if (input === undefined) return [];
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new ConfigError(`${path} must be an object`);
  }
  return Object.entries(input);
}

function flag(value: unknown, path: string): boolean {
  if (typeof value !== "boolean") throw new ConfigError(`${path} must be true or false`);
  return value;
}

function intBetween(value: unknown, path: string, min: number, max: number, note = ""): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${path} must be an integer from ${min} to ${max}${note}`);
  }
  return value;
}

function mergeLimits(base: PlanLimits, input: unknown, path: string): PlanLimits {
  const out = { ...base };
  for (const [k, v] of sectionFields(input, path)) {
    if (!(LIMIT_FIELDS as readonly string[]).includes(k)) {
      throw new ConfigError(`${path}.${k} is not a plan limit (${LIMIT_FIELDS.join(", ")})`);
    }
    out[k as (typeof LIMIT_FIELDS)[number]] = positiveInt(v, `${path}.${k}`);
  }
  return out;
}

/**
 * Validates a config object and merges it over the defaults. Unknown fields are errors, so a
 * typo in a config file fails loudly instead of silently keeping a default. A config this
 * returned comes back equal (`resolveConfig(resolveConfig(x))` deep-equals
 * `resolveConfig(x)`), so whoever takes a config just resolves it, resolved or not.
 */
export function resolveConfig(input: TminusConfigInput | TminusConfig = {}): TminusConfig {
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
  const baseUrl = input.base_url ?? null;
  if (baseUrl !== null) {
    let url: URL;
    try {
      url = new URL(baseUrl);
    } catch {
      throw new ConfigError(
        "config.base_url must be an absolute URL, like https://countdown.example.com",
      );
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") {
      throw new ConfigError("config.base_url must be an http or https URL");
    }
  }
  return {
    sandbox: mergeLimits(DEFAULT_CONFIG.sandbox, input.sandbox, "config.sandbox"),
    plans,
    default_plan: defaultPlan,
    base_url: baseUrl === null ? null : baseUrl.replace(/\/+$/, ""),
    allowed_hosts: allowedHostsSetting(input.allowed_hosts),
    trust_proxy: flag(input.trust_proxy ?? DEFAULT_CONFIG.trust_proxy, "config.trust_proxy"),
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
    webhooks: webhookSection(input.webhooks),
    render: renderSection(input.render),
    dashboard: dashboardSection(input.dashboard),
    analytics: analyticsSection(input.analytics),
    caches: cachesSection(input.caches),
    assets: assetsSection(input.assets),
  };
}

/** `allowed_hosts`: null, or a list of host entries each {@link allowedHostsCheck} accepts. */
function allowedHostsSetting(input: unknown): string[] | null {
  if (input === undefined || input === null) return null;
  if (!Array.isArray(input) || input.some((h) => typeof h !== "string")) {
    throw new ConfigError("config.allowed_hosts must be a list of host names");
  }
  try {
    allowedHostsCheck(input);
  } catch (error) {
    throw new ConfigError(`config.allowed_hosts: ${(error as Error).message}`);
  }
  return [...input];
}

const ASSET_BOUNDS: Record<keyof AssetsConfig, [number, number]> = {
  max_files: [0, 10_000],
  max_font_bytes: [1, 2 * 1024 * 1024],
  max_image_bytes: [1, 8 * 1024 * 1024],
};

function assetsSection(input: unknown): AssetsConfig {
  const out: AssetsConfig = { ...DEFAULT_CONFIG.assets };
  for (const [k, v] of sectionFields(input, "config.assets")) {
    const bounds = ASSET_BOUNDS[k as keyof AssetsConfig];
    if (!bounds) throw new ConfigError(`config.assets.${k} is not a known setting`);
    out[k as keyof AssetsConfig] = intBetween(v, `config.assets.${k}`, bounds[0], bounds[1]);
  }
  return out;
}

/**
 * The upload limits of a config. A caller may hand the handler an already-resolved config built
 * before uploads existed; the defaults then apply.
 */
export function assetsConfig(config: TminusConfig): AssetsConfig {
  return config.assets ?? DEFAULT_CONFIG.assets;
}

function cachesSection(input: unknown): CachesConfig {
  const out: CachesConfig = { ...DEFAULT_CONFIG.caches };
  for (const [k, v] of sectionFields(input, "config.caches")) {
    if (!(k in out)) throw new ConfigError(`config.caches.${k} is not a known setting`);
    out[k as keyof CachesConfig] = intBetween(v, `config.caches.${k}`, 1, 10_000_000);
  }
  return out;
}

/**
 * The cache bounds of a config. A caller may hand the handler an already-resolved config built
 * before these bounds existed; the defaults then apply.
 */
export function cachesConfig(config: TminusConfig): CachesConfig {
  return { ...DEFAULT_CONFIG.caches, ...config.caches };
}

function analyticsSection(input: unknown): AnalyticsConfig {
  const out: AnalyticsConfig = { ...DEFAULT_CONFIG.analytics };
  for (const [k, v] of sectionFields(input, "config.analytics")) {
    if (k === "enabled") out.enabled = flag(v, "config.analytics.enabled");
    else if (k === "retention_days") {
      out.retention_days = intBetween(v, "config.analytics.retention_days", 1, 3650);
    } else throw new ConfigError(`config.analytics.${k} is not a known setting`);
  }
  return out;
}

/**
 * The analytics settings of a config. A caller may hand the handler an already-resolved config
 * built before analytics existed; the defaults then apply.
 */
export function analyticsConfig(config: TminusConfig): AnalyticsConfig {
  return config.analytics ?? DEFAULT_CONFIG.analytics;
}

const RENDER_BOUNDS: Record<Exclude<keyof RenderConfig, "still_thread">, [number, number]> = {
  memory_mb: [MIN_MEMORY_MB, MAX_MEMORY_MB],
  thread_heap_mb: [0, 65_536],
  thread_young_mb: [0, 1024],
  threads: [0, 64],
  max_queue: [0, 100_000],
  atlas_cache_mb: [0, 4096],
  frame_cache_mb: [0, 4096],
  image_cache_mb: [0, 4096],
  max_wait_ms: [0, 600_000],
  still_cache_mb: [0, 4096],
  page_shed_delay_ms: [0, 60_000],
  shared_cache_seconds: [0, 60],
};

function renderSection(input: unknown): RenderConfig {
  const fields = sectionFields(input, "config.render");
  const budget = fields.find(([k, v]) => k === "memory_mb" && v !== null);
  // A budget's settings replace the defaults; settings given next to it still win (below).
  const out: RenderConfig = budget
    ? budgetedRender(intBetween(budget[1], "config.render.memory_mb", MIN_MEMORY_MB, MAX_MEMORY_MB))
    : { ...DEFAULT_CONFIG.render };
  for (const [k, v] of fields) {
    if (k === "still_thread") {
      out.still_thread = flag(v, "config.render.still_thread");
      continue;
    }
    const bounds = RENDER_BOUNDS[k as keyof typeof RENDER_BOUNDS];
    if (!bounds) throw new ConfigError(`config.render.${k} is not a known setting`);
    if ((k === "threads" || k === "memory_mb") && v === null) continue;
    const note =
      k === "threads" ? " (or null: automatic)" : k === "memory_mb" ? " (or null: none)" : "";
    (out as unknown as Record<string, number | null>)[k] = intBetween(
      v,
      `config.render.${k}`,
      bounds[0],
      bounds[1],
      note,
    );
  }
  return out;
}

/** The render settings of a budget of `memoryMb` on this machine's CPUs. */
function budgetedRender(memoryMb: number): RenderConfig {
  const plan = memoryPlan(memoryMb, serverThreads(availableParallelism()));
  return {
    ...DEFAULT_CONFIG.render,
    memory_mb: memoryMb,
    threads: plan.threads,
    still_thread: plan.still_thread,
    thread_heap_mb: plan.thread_heap_mb,
    thread_young_mb: plan.thread_young_mb,
    atlas_cache_mb: plan.atlas_cache_mb,
    frame_cache_mb: plan.frame_cache_mb,
    image_cache_mb: plan.image_cache_mb,
    still_cache_mb: plan.still_cache_mb,
    max_queue: plan.max_queue,
  };
}

/**
 * The render settings of a config. A caller may hand the handler an already-resolved config built
 * before the memory budget existed; the defaults then fill what it lacks.
 */
export function renderConfig(config: TminusConfig): RenderConfig {
  return { ...DEFAULT_CONFIG.render, ...config.render };
}

// Plain path segments only: the path is put into links, cookie paths and the CLI's link.
const DASHBOARD_PATH = /^(\/[A-Za-z0-9._~-]+)+$/;

function dashboardSection(input: unknown): DashboardConfig {
  const out: DashboardConfig = { ...DEFAULT_CONFIG.dashboard };
  for (const [k, v] of sectionFields(input, "config.dashboard")) {
    if (k === "enabled") out.enabled = flag(v, "config.dashboard.enabled");
    else if (k === "path") {
      if (
        typeof v !== "string" ||
        !DASHBOARD_PATH.test(v) ||
        v.startsWith("/api/") ||
        v === "/api" ||
        v === "/t"
      ) {
        throw new ConfigError(
          'config.dashboard.path must be a path like "/dashboard" (plain segments, not /api or /t)',
        );
      }
      out.path = v;
    } else if (
      k === "session_hours" ||
      k === "link_hours" ||
      k === "sign_in_attempts_per_15_minutes"
    ) {
      out[k] = intBetween(v, `config.dashboard.${k}`, 1, 10_000);
    } else {
      throw new ConfigError(`config.dashboard.${k} is not a known setting`);
    }
  }
  return out;
}

/** The dashboard settings of a config (defaults for a config resolved before they existed). */
export function dashboardConfig(config: TminusConfig): DashboardConfig {
  return config.dashboard ?? DEFAULT_CONFIG.dashboard;
}

function webhookSection(input: unknown): WebhookConfig {
  try {
    return resolveWebhookConfig(input);
  } catch (error) {
    if (error instanceof WebhookConfigError) throw new ConfigError(error.message);
    throw error;
  }
}

/**
 * The webhook settings of a config. A caller may hand the handler an already-resolved config
 * built before webhooks existed; the defaults then apply.
 */
export function webhookConfig(config: TminusConfig): WebhookConfig {
  return config.webhooks ?? DEFAULT_CONFIG.webhooks;
}
