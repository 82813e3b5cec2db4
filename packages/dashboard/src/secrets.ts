import { createHash, randomBytes, scrypt, timingSafeEqual } from "node:crypto";

import { randomToken } from "@tminus/admin";

// Tokens are made and hashed as the admin API makes its set-password links: one format.
export { randomToken, sha256Hex } from "@tminus/admin";

/** Compares two strings in time independent of where they differ (digests equalise lengths). */
export function equalSecrets(a: string, b: string): boolean {
  const da = createHash("sha256").update(a).digest();
  const db = createHash("sha256").update(b).digest();
  return timingSafeEqual(da, db) && a.length === b.length;
}

// scrypt parameters (OWASP's minimum N=2^17 costs 128 MiB per hash; 2^15 with r=8 is 32 MiB,
// about 50 ms on one core, and is recorded in the hash so it can be raised later).
const N = 32768;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const MAX_MEMORY = 64 * 1024 * 1024;

/** Passwords shorter than this are refused; longer than the maximum too (scrypt cost). */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 200;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEY_LENGTH, { N: n, r, p, maxmem: MAX_MEMORY }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** Hashes a password with scrypt and a random salt: `scrypt$N$r$p$salt$hash` (base64url). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P);
  return ["scrypt", N, R, P, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/** Whether `password` matches a hash made by `hashPassword` (constant-time comparison). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [n, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const salt = Buffer.from(parts[4]!, "base64url");
  const expected = Buffer.from(parts[5]!, "base64url");
  const key = await derive(password, salt, n, r, p);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

// A hash of a password nobody has: unknown emails cost the same time as wrong passwords.
let decoy: Promise<string> | undefined;

/** Spends one verification's time without a user, so response times do not reveal emails. */
export async function verifyDecoy(password: string): Promise<false> {
  decoy ??= hashPassword(randomToken());
  await verifyPassword(password, await decoy);
  return false;
}
