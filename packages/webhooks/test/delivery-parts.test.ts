// Unit tests of the pieces under the worker: the SSRF address policy, signing, the retry
// schedule and the webhook config.
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import {
  blockedReason,
  generateWebhookSecret,
  parseRetryAfter,
  resolveDestination,
  resolveWebhookConfig,
  retryDelay,
  signatureHeaders,
} from "../src/index";

describe("SSRF guard: address classes", () => {
  const cases: Record<string, string[]> = {
    loopback: ["127.0.0.1", "127.255.0.9", "::1", "[::1]"],
    private: ["10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1", "100.64.0.1"],
    link_local: ["169.254.1.1", "fe80::1", "fe80::1%eth0"],
    unique_local: ["fc00::1", "fd12:3456::1"],
    multicast: ["224.0.0.1", "239.1.2.3", "ff02::1"],
    reserved: [
      "0.0.0.0",
      "192.0.2.1",
      "198.51.100.7",
      "203.0.113.9",
      "240.0.0.1",
      "255.255.255.255",
      "::",
      "2001:db8::1",
      "64:ff9b::a00:1",
      "2002:7f00:1::",
      "not-an-ip",
    ],
    metadata: ["169.254.169.254", "fd00:ec2::254", "100.100.100.200"],
    ipv4_mapped: ["::ffff:127.0.0.1", "::ffff:8.8.8.8", "::ffff:a00:1", "::FFFF:10.0.0.1"],
  };
  for (const [reason, addresses] of Object.entries(cases)) {
    it(`refuses ${reason} addresses`, () => {
      for (const address of addresses) expect(blockedReason(address), address).toBe(reason);
    });
  }

  it("allows public unicast addresses", () => {
    for (const address of [
      "8.8.8.8",
      "1.1.1.1",
      "172.32.0.1",
      "100.128.0.1",
      "2606:4700:4700::1111",
      "2a00:1450:4001::200e",
    ]) {
      expect(blockedReason(address), address).toBe(null);
    }
  });
});

describe("SSRF guard: resolution", () => {
  const resolver = (addresses: string[]) => async () =>
    addresses.map((address) => ({ address, family: (address.includes(":") ? 6 : 4) as 4 | 6 }));

  it("drops refused addresses and returns one that passed (the one to connect to)", async () => {
    await expect(
      resolveDestination("hooks.example.com", {
        allowPrivate: false,
        resolver: resolver(["10.0.0.1", "93.184.216.34"]),
      }),
    ).resolves.toEqual({ address: "93.184.216.34", family: 4 });
  });

  it("refuses a name that resolves only to refused addresses, and names the classes", async () => {
    const error = await resolveDestination("rebind.example.com", {
      allowPrivate: false,
      resolver: resolver(["127.0.0.1", "::ffff:169.254.169.254", "fd00:ec2::254"]),
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "blocked_address",
      reasons: ["loopback", "ipv4_mapped", "metadata"],
    });
  });

  it("checks literal addresses without DNS, and fails names that do not resolve", async () => {
    const never = async () => {
      throw new Error("no DNS for literals");
    };
    await expect(
      resolveDestination("[::1]", { allowPrivate: false, resolver: never }),
    ).rejects.toMatchObject({ code: "blocked_address" });
    await expect(
      resolveDestination("8.8.8.8", { allowPrivate: false, resolver: never }),
    ).resolves.toEqual({ address: "8.8.8.8", family: 4 });
    await expect(
      resolveDestination("nowhere.example", {
        allowPrivate: false,
        resolver: async () => {
          throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
        },
      }),
    ).rejects.toMatchObject({ code: "dns_error" });
  });

  it("normalises trailing dots before every check: localhost. never reaches DNS", async () => {
    const never = async () => {
      throw new Error("must not resolve");
    };
    for (const host of ["localhost.", "LocalHost..", "a.localhost.", "127.0.0.1.", "[::1]"]) {
      await expect(
        resolveDestination(host, { allowPrivate: false, resolver: never }),
        host,
      ).rejects.toMatchObject({ code: "blocked_address" });
    }
    // A resolved name with a trailing dot is still checked by its addresses.
    await expect(
      resolveDestination("rebind.example.com.", {
        allowPrivate: false,
        resolver: resolver(["10.0.0.7"]),
      }),
    ).rejects.toMatchObject({ code: "blocked_address", reasons: ["private"] });
  });

  it("allows every address with allow_private_destinations", async () => {
    await expect(
      resolveDestination("localhost", { allowPrivate: true, resolver: resolver(["127.0.0.1"]) }),
    ).resolves.toEqual({ address: "127.0.0.1", family: 4 });
  });
});

describe("signing", () => {
  it("produces headers the standardwebhooks package verifies, with either secret in a rotation", () => {
    const current = generateWebhookSecret();
    const previous = generateWebhookSecret();
    expect(current).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = JSON.stringify({ type: "timer.ended", timestamp: "2030-01-01T00:00:00.000Z" });
    const now = Math.floor(Date.now() / 1000);
    const headers = signatureHeaders([current, previous], "evt-1", now, body);
    expect(headers["webhook-signature"]).toMatch(/^v1,\S+ v1,\S+$/);
    for (const secret of [current, previous]) {
      expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    }
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow();
  });
});

describe("retry schedule", () => {
  const SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 36000].map((s) => s * 1000);

  it("follows 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h with up to 10 % jitter, then gives up", () => {
    for (let attempt = 1; attempt <= 7; attempt++) {
      const base = SCHEDULE[attempt - 1]!;
      expect(retryDelay({ attempt, delaysMs: SCHEDULE, random: () => 0 })).toBe(base);
      expect(retryDelay({ attempt, delaysMs: SCHEDULE, random: () => 0.999 })).toBeLessThanOrEqual(
        base * 1.1,
      );
    }
    expect(retryDelay({ attempt: 8, delaysMs: SCHEDULE })).toBe(null);
    expect(resolveWebhookConfig().retry_delays_seconds.map((s) => s * 1000)).toEqual(SCHEDULE);
  });

  it("never retries sooner than Retry-After asks (seconds or a date), at most a day", () => {
    const now = Date.UTC(2030, 0, 1);
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter(new Date(now + 30_000).toUTCString(), now)).toBe(30_000);
    expect(parseRetryAfter("soon", now)).toBe(null);
    expect(
      retryDelay({ attempt: 1, delaysMs: SCHEDULE, retryAfterMs: 120_000, random: () => 0 }),
    ).toBe(120_000);
    expect(
      retryDelay({ attempt: 3, delaysMs: SCHEDULE, retryAfterMs: 1000, random: () => 0 }),
    ).toBe(1_800_000);
    expect(retryDelay({ attempt: 1, delaysMs: SCHEDULE, retryAfterMs: 9e9 })).toBe(86_400_000);
  });
});

describe("webhook config", () => {
  it("has safe defaults and validates every field", () => {
    expect(resolveWebhookConfig()).toEqual({
      allow_http: false,
      allow_private_destinations: false,
      timeout_ms: 10_000,
      max_destinations: 20,
      retry_delays_seconds: [5, 300, 1800, 7200, 18000, 36000, 36000],
      delivery_retention_days: 30,
      lease_margin_ms: 20_000,
      max_viewer_events_per_timer_day: 1000,
    });
    expect(resolveWebhookConfig({ allow_http: true }).allow_http).toBe(true);
    for (const bad of [
      { allow_http: "yes" },
      { allow_private_destinations: 1 },
      { timeout_ms: 0 },
      { timeout_ms: 1.5 },
      { max_destinations: -1 },
      { retry_delays_seconds: [0] },
      { retry_delays_seconds: "5" },
      { delivery_retention_days: 0 },
      { delivery_retention_days: 2.5 },
      { lease_margin_ms: 999 },
      { lease_margin_ms: 600_001 },
      { max_viewer_events_per_timer_day: -1 },
      { max_viewer_events_per_timer_day: 1_000_001 },
      { retries: 3 },
    ]) {
      expect(() => resolveWebhookConfig(bad), JSON.stringify(bad)).toThrow(/config\.webhooks/);
    }
  });
});
