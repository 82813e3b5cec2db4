/** Webhook delivery settings: the `webhooks` section of the operator's config (docs/webhooks.md). */
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
  /**
   * Days a settled (succeeded or failed) delivery is kept, with its attempts and event, before
   * housekeeping purges it. Pending deliveries are never purged.
   */
  delivery_retention_days: number;
  /**
   * How long a claimed delivery's lease outlives its attempt's timeout: the time a worker has to
   * record the answer before another worker may take the delivery over. The lease is
   * `timeout_ms + lease_margin_ms`; a worker killed mid-attempt delays that delivery by as much.
   */
  lease_margin_ms: number;
  /**
   * Recipients tracked for `viewer.started` / `viewer.ended` per timer per UTC day: past it, a
   * new recipient's first view sends nothing (and its end is not watched). Bounds the volume
   * of per-recipient events; 0 turns them off.
   */
  max_viewer_events_per_timer_day: number;
}

/** The defaults of decisions.md. */
export const DEFAULT_WEBHOOK_CONFIG: Readonly<WebhookConfig> = Object.freeze({
  allow_http: false,
  allow_private_destinations: false,
  timeout_ms: 10_000,
  max_destinations: 20,
  // decisions.md: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then failed.
  retry_delays_seconds: [5, 300, 1800, 7200, 18000, 36000, 36000],
  delivery_retention_days: 30,
  lease_margin_ms: 20_000,
  max_viewer_events_per_timer_day: 1000,
});

/** A `webhooks` config section that does not fit the documented shape. */
export class WebhookConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookConfigError";
  }
}

const FIELDS = new Set(Object.keys(DEFAULT_WEBHOOK_CONFIG));

function flag(value: unknown, path: string): boolean {
  if (typeof value !== "boolean") throw new WebhookConfigError(`${path} must be true or false`);
  return value;
}

function intBetween(value: unknown, path: string, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new WebhookConfigError(`${path} must be an integer from ${min} to ${max}`);
  }
  return value;
}

/**
 * Validates a `webhooks` config section and merges it over the defaults. Unknown fields are
 * errors, so a typo fails loudly instead of silently keeping a default.
 */
export function resolveWebhookConfig(input?: unknown, path = "config.webhooks"): WebhookConfig {
  const d = DEFAULT_WEBHOOK_CONFIG;
  if (input === undefined) return { ...d, retry_delays_seconds: [...d.retry_delays_seconds] };
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new WebhookConfigError(`${path} must be an object`);
  }
  for (const k of Object.keys(input)) {
    if (!FIELDS.has(k)) throw new WebhookConfigError(`${path}.${k} is not a known setting`);
  }
  const w = input as Partial<Record<keyof WebhookConfig, unknown>>;
  const delays = w.retry_delays_seconds ?? d.retry_delays_seconds;
  // Fractions are allowed so tests and development can retry within a second.
  if (
    !Array.isArray(delays) ||
    delays.length > 20 ||
    !delays.every((s) => typeof s === "number" && Number.isFinite(s) && s > 0 && s <= 86_400)
  ) {
    throw new WebhookConfigError(
      `${path}.retry_delays_seconds must be a list of at most 20 numbers of seconds, each above 0 and at most 86400`,
    );
  }
  return {
    allow_http: flag(w.allow_http ?? d.allow_http, `${path}.allow_http`),
    allow_private_destinations: flag(
      w.allow_private_destinations ?? d.allow_private_destinations,
      `${path}.allow_private_destinations`,
    ),
    timeout_ms: intBetween(w.timeout_ms ?? d.timeout_ms, `${path}.timeout_ms`, 100, 60_000),
    max_destinations: intBetween(
      w.max_destinations ?? d.max_destinations,
      `${path}.max_destinations`,
      0,
      1000,
    ),
    retry_delays_seconds: [...(delays as number[])],
    delivery_retention_days: intBetween(
      w.delivery_retention_days ?? d.delivery_retention_days,
      `${path}.delivery_retention_days`,
      1,
      3650,
    ),
    lease_margin_ms: intBetween(
      w.lease_margin_ms ?? d.lease_margin_ms,
      `${path}.lease_margin_ms`,
      1000,
      600_000,
    ),
    max_viewer_events_per_timer_day: intBetween(
      w.max_viewer_events_per_timer_day ?? d.max_viewer_events_per_timer_day,
      `${path}.max_viewer_events_per_timer_day`,
      0,
      1_000_000,
    ),
  };
}
