// Authentication and the key format, against a real SQLite store through the read cache,
// without a server: header shape, checksum, hash lookup, expiry, suspension.
import { createHash } from "node:crypto";
import { crc32 } from "node:zlib";
import {
  digestsEqual,
  displayPrefix,
  environmentOfKey,
  generateApiKey,
  hashApiKey,
  hasScope,
  hasValidChecksum,
  KEY_PREFIX,
  parseScopes,
  SCOPES,
} from "@tminus/admin";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiError } from "../../src/errors";
import { authenticate } from "../../src/guards/auth";
import { createReadCache } from "../../src/guards/read-cache";
import { type UnitStore, unitStore } from "./_store";

const NOW = Date.UTC(2026, 10, 23, 12);
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** The 6-character base62 CRC32 tail of the key format, most significant digit first. */
function checksum(head: string): string {
  let v = crc32(head);
  let out = "";
  for (let i = 0; i < 6; i++) {
    out = BASE62[v % 62] + out;
    v = Math.floor(v / 62);
  }
  return out;
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("key format", () => {
  it("is prefix + 32 base62 + a CRC32 tail in 6 base62 characters", () => {
    for (const environment of ["sandbox", "production"] as const) {
      const key = generateApiKey(environment);
      const prefix = KEY_PREFIX[environment];
      expect(key.secret).toMatch(new RegExp(`^${prefix}[0-9A-Za-z]{38}$`));
      expect(key.secret.slice(-6)).toBe(checksum(key.secret.slice(0, -6)));
      expect(key.hash).toBe(createHash("sha256").update(key.secret).digest("hex"));
      expect(key.prefix).toBe(key.secret.slice(0, prefix.length + 8));
      expect(environmentOfKey(key.secret)).toBe(environment);
      expect(hasValidChecksum(key.secret)).toBe(true);
    }
    expect(KEY_PREFIX).toEqual({ sandbox: "svc_test_", production: "svc_live_" });
  });

  it("draws body characters uniformly from all of base62 (no modulo bias)", () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 12_000; i++) {
      for (const c of generateApiKey("sandbox").secret.slice(9, 41)) {
        counts.set(c, (counts.get(c) ?? 0) + 1);
      }
    }
    expect(counts.size).toBe(62);
    // 384,000 characters, about 6,194 each: uniform draws stay within a few percent, while
    // taking bytes 248..255 too (256 % 62 = 8) would make "0".."7" a quarter more likely.
    const values = [...counts.values()];
    expect(Math.max(...values) / Math.min(...values)).toBeLessThan(1.15);
  });

  it("rejects any one-character change, a wrong length and an unknown prefix", () => {
    const { secret } = generateApiKey("production");
    fc.assert(
      fc.property(
        fc.integer({ min: 9, max: secret.length - 1 }),
        fc.constantFrom(...BASE62),
        (i, c) => {
          fc.pre(secret[i] !== c);
          expect(hasValidChecksum(secret.slice(0, i) + c + secret.slice(i + 1))).toBe(false);
        },
      ),
    );
    const head = `svc_live_${"A".repeat(31)}`;
    expect(hasValidChecksum(head + checksum(head))).toBe(false); // 31 body characters
    const long = `svc_live_${"A".repeat(33)}`;
    expect(hasValidChecksum(long + checksum(long))).toBe(false);
    const right = `svc_live_${"A".repeat(32)}`;
    expect(hasValidChecksum(right + checksum(right))).toBe(true);
    const other = `svc_prod_${"A".repeat(32)}`;
    expect(hasValidChecksum(other + checksum(other))).toBe(false);
    expect(environmentOfKey("svc_test")).toBeNull();
    expect(environmentOfKey("xsvc_live_")).toBeNull();
  });

  it("shows the environment prefix and 8 characters, never more", () => {
    expect(displayPrefix(`svc_live_ABCDEFGHIJ${"x".repeat(28)}`)).toBe("svc_live_ABCDEFGH");
    expect(displayPrefix(`svc_test_ABCDEFGHIJ${"x".repeat(28)}`)).toBe("svc_test_ABCDEFGH");
  });

  it("compares digests in constant time, by value and length", () => {
    const a = hashApiKey("a");
    expect(digestsEqual(a, hashApiKey("a"))).toBe(true);
    expect(digestsEqual(a, hashApiKey("b"))).toBe(false);
    expect(digestsEqual(a, a.slice(0, -1))).toBe(false);
    expect(digestsEqual("", "")).toBe(true);
  });
});

describe("authenticate", () => {
  let u: UnitStore;
  beforeEach(() => {
    u = unitStore(() => NOW);
  });
  afterEach(() => u.close());

  it("finds the key and its account from a well-formed Bearer header", async () => {
    const { issued } = await u.key("acme");
    const found = await authenticate(createReadCache(u.store), `Bearer ${issued.secret}`, NOW);
    expect(found.key.id).toBe(issued.id);
    expect(found.key.environment).toBe("production");
    expect(found.account.name).toBe("acme");
  });

  it("answers unauthorized for a missing or malformed header, naming which", async () => {
    const { issued } = await u.key("acme");
    const cache = createReadCache(u.store);
    for (const header of [null, ""]) {
      const e = await failure(authenticate(cache, header, NOW));
      expect([e.code, e.message]).toEqual([
        "unauthorized",
        "Authorization header is missing; send Authorization: Bearer <API_KEY>",
      ]);
    }
    for (const header of [
      issued.secret,
      `bearer ${issued.secret}`,
      `Bearer  ${issued.secret}`,
      `Bearer ${issued.secret} `,
      ` Bearer ${issued.secret}`,
      `Bearer ${issued.secret} extra`,
      `Basic ${issued.secret}`,
      "Bearer ",
    ]) {
      const e = await failure(authenticate(cache, header, NOW));
      expect(e.code, header).toBe("unauthorized");
      expect(e.message).toMatch(/^Authorization header is malformed/);
    }
  });

  it("answers invalid_api_key for a bad checksum, an unknown key, a revoked or expired one", async () => {
    const { issued } = await u.key("acme");
    const cache = () => createReadCache(u.store);
    const typo = issued.secret.slice(0, -1) + (issued.secret.endsWith("A") ? "B" : "A");
    const unknown = generateApiKey("production").secret;
    for (const secret of [typo, unknown, "svc_live_short"]) {
      const e = await failure(authenticate(cache(), `Bearer ${secret}`, NOW));
      expect([e.code, e.message]).toEqual([
        "invalid_api_key",
        "the API key does not exist or was revoked",
      ]);
    }
    // A rolled key works until its end, then is as revoked: the end itself is over.
    const rolled = await u.key("globex");
    await u.admin.rollKey(rolled.issued.id, { expiresInMs: 60_000 });
    const header = `Bearer ${rolled.issued.secret}`;
    await expect(authenticate(cache(), header, NOW + 59_999)).resolves.toMatchObject({
      key: { id: rolled.issued.id },
    });
    expect((await failure(authenticate(cache(), header, NOW + 60_000))).code).toBe(
      "invalid_api_key",
    );
    await u.admin.revokeKey(issued.id);
    const revoked = await failure(authenticate(cache(), `Bearer ${issued.secret}`, NOW));
    expect(revoked.code).toBe("invalid_api_key");
  });

  it("refuses a key failing its checksum even when the store holds its digest", async () => {
    const { auth } = await u.key("acme");
    const good = generateApiKey("production");
    const forged = good.secret.slice(0, -1) + (good.secret.endsWith("A") ? "B" : "A");
    // The store would find it: only the checksum stands between the header and the row.
    await u.store.createApiKey({
      id: crypto.randomUUID(),
      account_id: auth.account.id,
      environment: "production",
      prefix: good.prefix,
      hash: hashApiKey(forged),
      scopes: ["*"],
      name: null,
      max_active_keys: 10,
      now: NOW,
    });
    const cache = createReadCache(u.store);
    const e = await failure(authenticate(cache, `Bearer ${forged}`, NOW));
    expect(e.code).toBe("invalid_api_key");
    // Asked again, from the same cache: still refused, never remembered as found.
    expect((await failure(authenticate(cache, `Bearer ${forged}`, NOW))).code).toBe(
      "invalid_api_key",
    );
  });

  it("answers suspended for a valid key of a suspended account", async () => {
    const { issued, auth } = await u.key("acme");
    await u.store.setAccountStatus(auth.account.id, "suspended");
    const e = await failure(authenticate(createReadCache(u.store), `Bearer ${issued.secret}`, NOW));
    expect([e.code, e.message]).toEqual([
      "suspended",
      "the account is suspended; its keys are valid but no request is served until it is reactivated",
    ]);
  });
});

describe("scopes", () => {
  it("grants what the key lists, everything with *", () => {
    expect(hasScope(["*"], "timers:write")).toBe(true);
    expect(hasScope(["timers:read"], "timers:read")).toBe(true);
    expect(hasScope(["timers:read"], "timers:write")).toBe(false);
    expect(hasScope([], "timers:read")).toBe(false);
  });

  it("defaults to *, removes duplicates and refuses unknown names", () => {
    expect(parseScopes(undefined)).toEqual(["*"]);
    expect(parseScopes([])).toEqual(["*"]);
    expect(parseScopes(["timers:read", "timers:read", "*"])).toEqual(["timers:read", "*"]);
    expect(parseScopes([...SCOPES])).toEqual([...SCOPES]);
    expect(() => parseScopes(["timers:read", "timers:delete"])).toThrow(
      `unknown scope "timers:delete" (known: *, ${SCOPES.join(", ")})`,
    );
  });
});
