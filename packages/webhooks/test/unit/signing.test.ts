// Standard Webhooks signing: base64 HMAC-SHA256 of `id.timestamp.body` under the secret's
// base64 bytes, one `v1,` signature per secret during a rotation.
import { createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { generateWebhookSecret, signatureHeaders, signPayload } from "../../src/signing";

const raw = Buffer.from("0123456789abcdef0123456789abcdef");
const secret = `whsec_${raw.toString("base64")}`;
const expected = (key: Buffer, content: string) =>
  createHmac("sha256", key).update(content).digest("base64");

describe("webhook signing", () => {
  it("signs id.timestamp.body with the secret's decoded bytes, prefix or not", () => {
    const sig = signPayload(secret, "evt_1", 1_700_000_000, '{"a":1}');
    expect(sig).toBe(expected(raw, 'evt_1.1700000000.{"a":1}'));
    expect(signPayload(raw.toString("base64"), "evt_1", 1_700_000_000, '{"a":1}')).toBe(sig);
    expect(signPayload(secret, "evt_2", 1_700_000_000, '{"a":1}')).not.toBe(sig);
    expect(signPayload(secret, "evt_1", 1_700_000_001, '{"a":1}')).not.toBe(sig);
    expect(signPayload(secret, "evt_1", 1_700_000_000, '{"a":2}')).not.toBe(sig);
  });

  it("sends one v1 signature per secret, space-separated, each verifiable on its own", () => {
    const next = generateWebhookSecret();
    const body = '{"type":"timer.created"}';
    const headers = signatureHeaders([secret, next], "evt_9", 1_700_000_000, body);
    expect(headers["webhook-id"]).toBe("evt_9");
    expect(headers["webhook-timestamp"]).toBe("1700000000");
    const parts = headers["webhook-signature"]!.split(" ");
    expect(parts).toEqual([
      `v1,${signPayload(secret, "evt_9", 1_700_000_000, body)}`,
      `v1,${signPayload(next, "evt_9", 1_700_000_000, body)}`,
    ]);
    const now = { "webhook-timestamp": String(Math.floor(Date.now() / 1000)) };
    const fresh = signatureHeaders([secret, next], "evt_9", Number(now["webhook-timestamp"]), body);
    for (const s of [secret, next]) {
      expect(new Webhook(s).verify(body, fresh)).toEqual({ type: "timer.created" });
    }
  });

  it("makes whsec_ secrets of 32 random bytes", () => {
    const a = generateWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), "base64")).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(a);
  });
});
