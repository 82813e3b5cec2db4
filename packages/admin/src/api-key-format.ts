import { hash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Environment } from "@tminus/store";

/** Key prefixes of the specification: they tell the environment at a glance. */
export const KEY_PREFIX: Record<Environment, string> = {
  sandbox: "svc_test_",
  production: "svc_live_",
};

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const BODY_LENGTH = 32; // 32 base62 chars = 190 bits, well above the 128 bits required.
const CHECKSUM_LENGTH = 6;
/** How many characters after the environment prefix are shown in lists and logs. */
const DISPLAY_CHARS = 8;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(text: string): number {
  let crc = 0xffffffff;
  for (let i = 0; i < text.length; i++) {
    crc = CRC_TABLE[(crc ^ text.charCodeAt(i)) & 0xff]! ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function base62(value: number, length: number): string {
  let out = "";
  let v = value;
  for (let i = 0; i < length; i++) {
    out = ALPHABET.charAt(v % 62) + out;
    v = Math.floor(v / 62);
  }
  return out;
}

function randomBase62(length: number): string {
  // Rejection sampling keeps every character uniform (256 is not a multiple of 62).
  let out = "";
  while (out.length < length) {
    // Stryker disable next-line ArithmeticOperator: equivalent, the batch size only changes how often the loop asks for more bytes.
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET.charAt(byte % 62);
    }
  }
  return out;
}

/** A freshly generated key: the secret is shown once, only the hash is stored. */
export interface GeneratedKey {
  secret: string;
  prefix: string;
  hash: string;
}

/**
 * Generates an API key: environment prefix, 32 random base62 characters and a CRC32
 * checksum tail, so secret scanners can recognise a leaked key without a database lookup.
 */
export function generateApiKey(environment: Environment): GeneratedKey {
  const head = KEY_PREFIX[environment] + randomBase62(BODY_LENGTH);
  const secret = head + base62(crc32(head), CHECKSUM_LENGTH);
  return { secret, prefix: displayPrefix(secret), hash: hashApiKey(secret) };
}

/** The non-secret start of a key, as shown in lists and the request log. */
export function displayPrefix(secret: string): string {
  // Stryker disable next-line MethodExpression: equivalent, both prefixes are 9 characters long.
  const env = secret.startsWith(KEY_PREFIX.production) ? KEY_PREFIX.production : KEY_PREFIX.sandbox;
  return secret.slice(0, env.length + DISPLAY_CHARS);
}

/** SHA-256 of the secret in hex: right for high-entropy secrets (no slow hash needed). */
export function hashApiKey(secret: string): string {
  // The one-shot form: a quarter of createHash's cost, and this runs on every API request.
  return hash("sha256", secret, "hex");
}

/** The environment a key's prefix names, or null when it has neither prefix. */
export function environmentOfKey(secret: string): Environment | null {
  if (secret.startsWith(KEY_PREFIX.sandbox)) return "sandbox";
  if (secret.startsWith(KEY_PREFIX.production)) return "production";
  return null;
}

/** Whether a presented key has a valid shape and checksum (rejects typos without I/O). */
export function hasValidChecksum(secret: string): boolean {
  const env = environmentOfKey(secret);
  if (!env) return false;
  const expectedLength = KEY_PREFIX[env].length + BODY_LENGTH + CHECKSUM_LENGTH;
  if (secret.length !== expectedLength) return false;
  const head = secret.slice(0, -CHECKSUM_LENGTH);
  return base62(crc32(head), CHECKSUM_LENGTH) === secret.slice(-CHECKSUM_LENGTH);
}

/** Constant-time equality of two hex digests of equal length. */
export function digestsEqual(a: string, b: string): boolean {
  // Stryker disable next-line StringLiteral: equivalent, Buffer.from's default encoding is UTF-8.
  const x = Buffer.from(a, "utf8");
  // Stryker disable next-line StringLiteral: equivalent, as above.
  const y = Buffer.from(b, "utf8");
  return x.length === y.length && timingSafeEqual(x, y);
}
