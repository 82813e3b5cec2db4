// HMAC (RFC 2104) over the pure-JS SHA-256, for signing recipient URLs.

import { sha256 } from "./sha256";

const BLOCK = 64;
const encoder = new TextEncoder();

/** UTF-8 bytes of a string; bytes pass through. */
function toBytes(value: string | Uint8Array): Uint8Array {
  return typeof value === "string" ? encoder.encode(value) : value;
}

/** HMAC-SHA256 (32 bytes) of `message` under `key`; strings are taken as UTF-8. */
export function hmacSha256(key: string | Uint8Array, message: string | Uint8Array): Uint8Array {
  let k = toBytes(key);
  // Keys longer than a block are hashed first (RFC 2104 section 2).
  if (k.length > BLOCK) k = sha256(k);
  // The key zero-padded to a block, then each byte xored with the pads.
  const block = new Uint8Array(BLOCK);
  block.set(k);
  const inner = block.map((byte) => byte ^ 0x36);
  const outer = block.map((byte) => byte ^ 0x5c);
  const msg = toBytes(message);
  const innerInput = new Uint8Array(BLOCK + msg.length);
  innerInput.set(inner);
  innerInput.set(msg, BLOCK);
  const outerInput = new Uint8Array(BLOCK + 32);
  outerInput.set(outer);
  outerInput.set(sha256(innerInput), BLOCK);
  return sha256(outerInput);
}

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** Unpadded base64url (RFC 4648 section 5) text of `bytes`, safe in a URL as is. */
export function base64url(bytes: Uint8Array): string {
  let out = "";
  // Stryker disable next-line EqualityOperator: equivalent, a pass at i = length writes no character.
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let j = 0; j < chars; j++) out += ALPHABET[(n >>> (18 - 6 * j)) & 63];
  }
  return out;
}

/**
 * Whether two strings are equal, in time that depends only on their lengths,
 * so that an attacker cannot find a valid signature one character at a time.
 */
export function timingSafeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  // Stryker disable next-line EqualityOperator: equivalent, charCodeAt past the end is NaN and NaN ^ NaN is 0.
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
