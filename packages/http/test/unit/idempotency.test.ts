// Idempotency-Key validation and the request fingerprint: a retry of the same request (whatever
// its key order or spacing) is a replay, any other request under the key is a conflict.
import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/errors";
import {
  canonicalJson,
  checkIdempotencyKey,
  requestFingerprint,
} from "../../src/guards/idempotency";

describe("Idempotency-Key", () => {
  it("accepts 1 to 255 printable ASCII characters, spaces and tildes included", () => {
    for (const key of ["a", " ", "~", "x".repeat(255), "order 42/retry#1", "\x20\x7e"]) {
      expect(checkIdempotencyKey(key)).toBe(key);
    }
  });

  it("refuses empty, too long, control and non-ASCII keys with validation_error", () => {
    for (const key of ["", "x".repeat(256), "a\x1f", "\x7f", "tab\tkey", "é", "a\nb", "\nabc"]) {
      let error: unknown;
      try {
        checkIdempotencyKey(key);
      } catch (e) {
        error = e;
      }
      expect(error, JSON.stringify(key)).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe("validation_error");
      expect((error as ApiError).details).toEqual({ field: "Idempotency-Key" });
      expect((error as ApiError).message).toBe(
        "Idempotency-Key must be 1 to 255 printable ASCII characters",
      );
    }
  });
});

describe("canonical JSON", () => {
  it("sorts keys at every depth and drops undefined values", () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null }, u: undefined })).toBe(
      '{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}',
    );
    expect(canonicalJson({ only: undefined })).toBe("{}");
    expect(canonicalJson([3, "x", true, null])).toBe('[3,"x",true,null]');
    expect(canonicalJson("text")).toBe('"text"');
    expect(canonicalJson(null)).toBe("null");
  });

  it("is valid JSON equal to the input without undefined values", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
});

describe("request fingerprint", () => {
  const body = { name: "Launch", type: "fixed", look: { theme: "dark", size: "md" } };
  const reordered = { look: { size: "md", theme: "dark" }, type: "fixed", name: "Launch" };

  it("is the same for the same body in another key order or spacing: a replay", () => {
    const fromWire = JSON.parse(JSON.stringify(reordered, null, 2));
    expect(requestFingerprint("POST", "/api/v1/timers", fromWire)).toBe(
      requestFingerprint("POST", "/api/v1/timers", body),
    );
    expect(requestFingerprint("POST", "/api/v1/timers", { ...body, extra: undefined })).toBe(
      requestFingerprint("POST", "/api/v1/timers", body),
    );
  });

  it("differs when the method, the path or any value differs: a conflict", () => {
    const base = requestFingerprint("POST", "/api/v1/timers", body);
    expect(requestFingerprint("PUT", "/api/v1/timers", body)).not.toBe(base);
    expect(requestFingerprint("POST", "/api/v1/timers/x/duplicate", body)).not.toBe(base);
    expect(requestFingerprint("POST", "/api/v1/timers", { ...body, name: "Launch!" })).not.toBe(
      base,
    );
    expect(requestFingerprint("POST", "/api/v1/timers", { ...body, extra: null })).not.toBe(base);
  });

  it("is the SHA-256 (hex) of method, path and canonical body", () => {
    const expected = createHash("sha256")
      .update('POST /api/v1/timers\n{"a":1,"b":2}')
      .digest("hex");
    expect(requestFingerprint("POST", "/api/v1/timers", { b: 2, a: 1 })).toBe(expected);
  });
});
