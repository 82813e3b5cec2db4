// The pure-JS SHA-256 / HMAC against node:crypto, and URL signing.
import { createHash, createHmac } from "node:crypto";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { base64url, hmacSha256, timingSafeEqual } from "../src/personalize/hmac";
import { sha256 } from "../src/personalize/sha256";
import {
  canonicalPersonalizedParams,
  legacyCanonicalPersonalizedParams,
  SIGNED_PARAM_NAMES,
  signPersonalizedParams,
  verifyPersonalizedParams,
} from "../src/personalize/sign";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
// A fixed seed keeps CI deterministic; FC_SEED replays or explores other corners.
const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : 20_261_122;

describe("sha256", () => {
  test.each([
    ["", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
    ["abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"],
    [
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    ],
  ])("FIPS 180-4 vector %j", (input, digest) => {
    expect(hex(sha256(new TextEncoder().encode(input)))).toBe(digest);
  });

  test("matches node:crypto on random input, including every padding boundary", () => {
    const lengths = fc.oneof(
      fc.integer({ min: 0, max: 300 }),
      fc.constantFrom(55, 56, 63, 64, 65, 119, 120, 128),
    );
    fc.assert(
      fc.property(
        lengths.chain((n) => fc.uint8Array({ minLength: n, maxLength: n })),
        (data) => {
          expect(hex(sha256(data))).toBe(createHash("sha256").update(data).digest("hex"));
        },
      ),
      { numRuns: 500, seed },
    );
  });
});

describe("hmacSha256", () => {
  test("RFC 4231 test case 2", () => {
    expect(hex(hmacSha256("Jefe", "what do ya want for nothing?"))).toBe(
      "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
    );
  });

  test("matches node:crypto for random keys (short, block-sized, longer than a block) and messages", () => {
    fc.assert(
      fc.property(
        // Exact lengths: fast-check's default sizes keep arrays short, and keys longer
        // than the 64-byte block (hashed first, RFC 2104) must be drawn as often as short ones.
        fc
          .oneof(fc.integer({ min: 0, max: 200 }), fc.constantFrom(0, 1, 63, 64, 65, 128, 200))
          .chain((n) => fc.uint8Array({ minLength: n, maxLength: n })),
        fc.uint8Array({ maxLength: 300 }),
        (key, message) => {
          expect(hex(hmacSha256(key, message))).toBe(
            createHmac("sha256", key).update(message).digest("hex"),
          );
        },
      ),
      { numRuns: 300, seed },
    );
  });

  test("keys longer than a block are hashed first: the same MAC as their digest as key", () => {
    for (const length of [65, 100, 1000]) {
      const key = new Uint8Array(length).map((_, i) => (i * 7 + 3) & 0xff);
      const mac = hex(hmacSha256(key, "message"));
      expect(mac).toBe(createHmac("sha256", key).update("message").digest("hex"));
      expect(mac).toBe(hex(hmacSha256(sha256(key), "message")));
    }
    // A 64-byte key is used as is, not hashed.
    const block = new Uint8Array(64).fill(1);
    expect(hex(hmacSha256(block, "m"))).not.toBe(hex(hmacSha256(sha256(block), "m")));
    expect(hex(hmacSha256(block, "m"))).toBe(createHmac("sha256", block).update("m").digest("hex"));
  });

  test("string keys and messages are UTF-8", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme" }),
        fc.string({ unit: "grapheme" }),
        (key, message) => {
          expect(hex(hmacSha256(key, message))).toBe(
            createHmac("sha256", key).update(message, "utf8").digest("hex"),
          );
        },
      ),
      { numRuns: 200, seed },
    );
  });
});

describe("base64url and timingSafeEqual", () => {
  test("base64url matches Buffer's", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        expect(base64url(bytes)).toBe(Buffer.from(bytes).toString("base64url"));
      }),
      { numRuns: 300, seed },
    );
  });

  test("timingSafeEqual is equality", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(timingSafeEqual(a, b)).toBe(a === b);
        expect(timingSafeEqual(a, a)).toBe(true);
      }),
      { numRuns: 300, seed },
    );
  });
});

describe("signPersonalizedParams / verifyPersonalizedParams", () => {
  const secret = "tps_3f1c2a9e8b7d6c5a4f3e2d1c0b9a8f7e";
  const params = { deadline: "2026-12-01T09:00:00+01:00" };

  test("the signature is HMAC-SHA256 of the canonical text, unpadded base64url", () => {
    expect(canonicalPersonalizedParams(params)).toBe(
      "tminus-personalized-v1\ndeadline=2026-12-01T09:00:00+01:00",
    );
    const sig = signPersonalizedParams(secret, params);
    expect(sig).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sig).toBe(
      createHmac("sha256", secret).update(canonicalPersonalizedParams(params)).digest("base64url"),
    );
    expect(verifyPersonalizedParams(secret, params, sig)).toBe(true);
  });

  test("SIGNED_PARAM_NAMES is in name order, as the canonical text lists them (no sort there)", () => {
    expect(SIGNED_PARAM_NAMES).toEqual([...SIGNED_PARAM_NAMES].sort());
  });

  test("covered parameters present are joined by & in name order; others are left out", () => {
    expect(
      canonicalPersonalizedParams({ start: "1796112000", utm_source: "x", deadline: "a b" }),
    ).toBe("tminus-personalized-v1\ndeadline=a+b&start=1796112000");
    expect(canonicalPersonalizedParams({ utm_source: "x" })).toBe("tminus-personalized-v1\n");
  });

  test("an edited value, another secret or an edited signature fails", () => {
    const sig = signPersonalizedParams(secret, params);
    expect(verifyPersonalizedParams(secret, { deadline: "2027-12-01T09:00:00+01:00" }, sig)).toBe(
      false,
    );
    expect(verifyPersonalizedParams("another", params, sig)).toBe(false);
    expect(verifyPersonalizedParams(secret, { ...params, start: "1" }, sig)).toBe(false);
    expect(verifyPersonalizedParams(secret, {}, sig)).toBe(false);
    const flipped = sig.slice(0, -1) + (sig.endsWith("A") ? "B" : "A");
    expect(verifyPersonalizedParams(secret, params, flipped)).toBe(false);
    expect(verifyPersonalizedParams(secret, params, `${sig}=`)).toBe(false);
  });

  test("parameters outside deadline/start (utm_*, sig itself) are not covered", () => {
    const sig = signPersonalizedParams(secret, params);
    expect(verifyPersonalizedParams(secret, { ...params, utm_source: "mail", sig }, sig)).toBe(
      true,
    );
  });

  test("a + decoded to a space by a query parser still verifies", () => {
    const sig = signPersonalizedParams(secret, params);
    expect(verifyPersonalizedParams(secret, { deadline: "2026-12-01T09:00:00 01:00" }, sig)).toBe(
      true,
    );
  });

  test("a standard HMAC over the raw value verifies, for ISO with Z, an offset and Unix seconds", () => {
    for (const deadline of ["2026-12-07T20:43:39Z", "2026-12-07T21:43:39+01:00", "1796676219"]) {
      const sig = createHmac("sha256", secret)
        .update(`tminus-personalized-v1\ndeadline=${deadline}`)
        .digest("base64url");
      expect(signPersonalizedParams(secret, { deadline })).toBe(sig);
      expect(verifyPersonalizedParams(secret, { deadline }, sig)).toBe(true);
      // The offset's + decoded to a space by a form decoder.
      expect(verifyPersonalizedParams(secret, { deadline: deadline.replace("+", " ") }, sig)).toBe(
        true,
      );
    }
  });

  test("signatures over the percent-encoded value (links sent before 0.2) still verify", () => {
    const deadline = "2026-12-07T21:43:39+01:00";
    const legacyText = "tminus-personalized-v1\ndeadline=2026-12-07T21%3A43%3A39%2B01%3A00";
    expect(legacyCanonicalPersonalizedParams({ deadline })).toBe(legacyText);
    const old = createHmac("sha256", secret).update(legacyText).digest("base64url");
    expect(old).not.toBe(signPersonalizedParams(secret, { deadline }));
    expect(verifyPersonalizedParams(secret, { deadline }, old)).toBe(true);
    expect(verifyPersonalizedParams(secret, { deadline: deadline.replace("+", " ") }, old)).toBe(
      true,
    );
    expect(verifyPersonalizedParams(secret, { deadline: "2026-12-08T21:43:39+01:00" }, old)).toBe(
      false,
    );
    expect(verifyPersonalizedParams("another", { deadline }, old)).toBe(false);
  });

  test("any single change to any signed value is detected", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.string({ minLength: 1 }),
        fc.string(),
        (deadline, start, secretKey) => {
          const p = { deadline, start };
          const sig = signPersonalizedParams(secretKey, p);
          expect(verifyPersonalizedParams(secretKey, p, sig)).toBe(true);
          const edited = `${deadline}x`;
          expect(verifyPersonalizedParams(secretKey, { deadline: edited, start }, sig)).toBe(false);
        },
      ),
      { numRuns: 200, seed },
    );
  });
});
