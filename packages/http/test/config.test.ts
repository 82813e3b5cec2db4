import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ConfigError, DEFAULT_CONFIG, resolveConfig, type TminusConfigInput } from "../src/index";

const limits = fc.record(
  {
    requests_per_minute: fc.nat(100_000),
    new_timers_per_cycle: fc.nat(1_000_000),
    max_keys: fc.nat(100),
  },
  { requiredKeys: [] },
);

/** Valid config inputs: any subset of the settings, each within its documented bounds. */
const configInput: fc.Arbitrary<TminusConfigInput> = fc.record(
  {
    sandbox: limits,
    plans: fc.dictionary(fc.constantFrom("starter", "growth", "scale", "vip"), limits),
    default_plan: fc.constantFrom("starter", "growth"),
    base_url: fc.option(
      fc.constantFrom("https://t.example.com", "http://localhost:8080/", "https://x.test/tm//"),
      { nil: null },
    ),
    request_log_retention_days: fc.nat(3650),
    idempotency_ttl_hours: fc.nat(1000),
    max_body_bytes: fc.nat(10_000_000),
    webhooks: fc.record(
      {
        allow_http: fc.boolean(),
        timeout_ms: fc.integer({ min: 100, max: 60_000 }),
        retry_delays_seconds: fc.array(fc.double({ min: 0.01, max: 86_400, noNaN: true }), {
          maxLength: 20,
        }),
        max_viewer_events_per_timer_day: fc.nat(1_000_000),
      },
      { requiredKeys: [] },
    ),
    render: fc.record(
      { threads: fc.option(fc.nat(64), { nil: null }), image_cache_mb: fc.nat(4096) },
      { requiredKeys: [] },
    ),
    dashboard: fc.record(
      {
        enabled: fc.boolean(),
        path: fc.constantFrom("/dashboard", "/admin", "/a/b-c"),
        session_hours: fc.integer({ min: 1, max: 10_000 }),
      },
      { requiredKeys: [] },
    ),
    analytics: fc.record(
      { enabled: fc.boolean(), retention_days: fc.integer({ min: 1, max: 3650 }) },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: [] },
);

describe("resolveConfig", () => {
  it("merges the webhooks section over its defaults and reports its faults as ConfigError", () => {
    expect(resolveConfig({ webhooks: { allow_http: true } }).webhooks).toMatchObject({
      allow_http: true,
      timeout_ms: 10_000,
    });
    expect(() => resolveConfig({ webhooks: { timeout_ms: 0 } })).toThrow(ConfigError);
    expect(() => resolveConfig({ webhooks: { retries: 3 } as never })).toThrow(
      /config\.webhooks\.retries is not a known setting/,
    );
  });

  it("merges the analytics section over its defaults and refuses anything else", () => {
    expect(resolveConfig({}).analytics).toEqual({ enabled: true, retention_days: 90 });
    expect(resolveConfig({ analytics: { retention_days: 7 } }).analytics).toEqual({
      enabled: true,
      retention_days: 7,
    });
    for (const [bad, message] of [
      [{ enabled: "yes" }, /config\.analytics\.enabled must be true or false/],
      [{ retention_days: 0 }, /config\.analytics\.retention_days must be an integer from 1/],
      [{ retention_days: 3651 }, /from 1 to 3650/],
      [{ salt: "x" }, /config\.analytics\.salt is not a known setting/],
      [[], /config\.analytics must be an object/],
    ] as const) {
      expect(() => resolveConfig({ analytics: bad as never }), JSON.stringify(bad)).toThrow(
        message,
      );
    }
  });

  it("merges the caches section over its defaults and refuses anything else", () => {
    expect(resolveConfig({}).caches).toEqual({
      api_keys: 10_000,
      timers: 10_000,
      first_views: 50_000,
      viewer_events: 50_000,
      analytics_viewers: 100_000,
    });
    expect(resolveConfig({ caches: { timers: 50_000 } }).caches).toMatchObject({
      api_keys: 10_000,
      timers: 50_000,
    });
    for (const [bad, message] of [
      [{ timers: 0 }, /config\.caches\.timers must be an integer from 1 to 10000000/],
      [{ api_keys: 1.5 }, /config\.caches\.api_keys must be an integer/],
      [{ images: 10 }, /config\.caches\.images is not a known setting/],
      [[], /config\.caches must be an object/],
    ] as const) {
      expect(() => resolveConfig({ caches: bad as never }), JSON.stringify(bad)).toThrow(message);
    }
  });

  it("takes an already-resolved config and gives it back equal (idempotent)", () => {
    expect(resolveConfig(DEFAULT_CONFIG)).toEqual(DEFAULT_CONFIG);
    fc.assert(
      fc.property(configInput, (input) => {
        const once = resolveConfig(input);
        const twice = resolveConfig(once);
        expect(twice).toEqual(once);
        // A copy, not the same object: changing it leaves the caller's config alone.
        expect(twice).not.toBe(once);
        expect(twice.plans).not.toBe(once.plans);
      }),
    );
  });

  it("completes a resolved config that lacks the sections added since", () => {
    const { analytics: _a, dashboard: _d, ...old } = resolveConfig({ max_body_bytes: 1000 });
    const resolved = resolveConfig(old);
    expect(resolved.max_body_bytes).toBe(1000);
    expect(resolved.analytics).toEqual(DEFAULT_CONFIG.analytics);
    expect(resolved.dashboard).toEqual(DEFAULT_CONFIG.dashboard);
  });
});
