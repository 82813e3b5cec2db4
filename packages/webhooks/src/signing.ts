import { createHmac, randomBytes } from "node:crypto";

const SECRET_PREFIX = "whsec_";

/** A new signing secret: `whsec_` + base64 of 32 random bytes (Standard Webhooks allows 24 to 64). */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString("base64");
}

/** The Standard Webhooks signature of one message: base64 HMAC-SHA256 of `id.timestamp.body`. */
export function signPayload(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(6) : secret, "base64");
  return createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64");
}

/**
 * The three Standard Webhooks headers of an attempt. `webhook-id` is the event id (the same on
 * every retry and replay, so receivers can deduplicate); `webhook-timestamp` is this attempt in
 * Unix seconds; `webhook-signature` carries one `v1,` signature per secret, space-separated,
 * so a receiver keeps verifying during a rotation whichever secret it holds.
 */
export function signatureHeaders(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): Record<string, string> {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": secrets.map((s) => `v1,${signPayload(s, id, timestamp, body)}`).join(" "),
  };
}
