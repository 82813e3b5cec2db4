import { hash } from "node:crypto";
import { validationError } from "../errors";

/** Keys of 1 to 255 printable ASCII characters (conventions.md). */
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

/** Validates an Idempotency-Key header value. */
export function checkIdempotencyKey(key: string): string {
  if (!KEY_PATTERN.test(key)) {
    throw validationError(
      "Idempotency-Key",
      "Idempotency-Key must be 1 to 255 printable ASCII characters",
    );
  }
  return key;
}

/** JSON with object keys sorted, so that key order and spacing do not change a fingerprint. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.keys(value as Record<string, unknown>)
    .sort()
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(",")}}`;
}

/** Fingerprint of a request for idempotency: method, path and canonical body. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  // The one-shot form (as hashApiKey): no Hash object per create.
  return hash("sha256", `${method} ${path}\n${canonicalJson(body)}`, "hex");
}
