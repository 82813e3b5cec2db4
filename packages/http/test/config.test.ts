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
});
