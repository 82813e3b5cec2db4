import { randomBytes } from "node:crypto";
import { emptyClock, revisionTag, type TimerData, type TimerDefinition } from "@tminus/core";
import type { TimerRecord } from "@tminus/store";

/**
 * The stored data of a new timer: a fresh clock, a signing secret when it needs one, and the
 * base URL it was created under (the webhook worker builds time-based events' URLs on it when
 * no `base_url` is configured: it has no request to take one from).
 */
export function newTimerData(definition: TimerDefinition, origin: string): Record<string, unknown> {
  const data: TimerData = { definition, clock: emptyClock(), origin };
  if (definition.type === "personalized") {
    data.signing_secret = `psk_${randomBytes(32).toString("base64url")}`;
  }
  return data as unknown as Record<string, unknown>;
}

/** A strong ETag carrying the revision. */
export function etagOf(record: TimerRecord): string {
  return `"${revisionTag(record.revision)}"`;
}
