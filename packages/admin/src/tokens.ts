import { createHash, randomBytes } from "node:crypto";

/** A fresh random token (256 bits, base64url): session ids, set-password links. */
export function randomToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Lowercase hex SHA-256: how tokens are stored (the store never sees a token). */
export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
