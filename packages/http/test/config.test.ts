import { describe, expect, it } from "vitest";
import { ConfigError, resolveConfig } from "../src/index";

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
});
