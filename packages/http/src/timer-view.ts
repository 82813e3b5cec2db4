import { randomBytes } from "node:crypto";
import { emptyClock, formatInstant, type TimerClock, type TimerDefinition } from "@tminus/core";
import type { TimerRecord } from "@tminus/store";
import { publicUrls } from "./public/urls";

/** What the http layer keeps in a timer row's `data`. */
export interface TimerData {
  definition: TimerDefinition;
  clock: TimerClock;
  /** Personalized timers: the HMAC key recipients' URL parameters are signed with. */
  signing_secret?: string;
}

/** The stored data of a new timer: a fresh clock, and a signing secret when it needs one. */
export function newTimerData(definition: TimerDefinition): Record<string, unknown> {
  const data: TimerData = { definition, clock: emptyClock() };
  if (definition.type === "personalized") {
    data.signing_secret = `psk_${randomBytes(32).toString("base64url")}`;
  }
  return data as unknown as Record<string, unknown>;
}

const COMMON = new Set(["name", "type", "timezone", "metadata", "look", "ended"]);

/** The definition and clock stored in a timer row. */
export function timerData(record: TimerRecord): TimerData {
  return record.data as unknown as TimerData;
}

/** The revision as clients see it: opaque, sent back in If-Match. */
export function revisionTag(revision: number): string {
  return `r${revision}`;
}

/** A strong ETag carrying the revision. */
export function etagOf(record: TimerRecord): string {
  return `"${revisionTag(record.revision)}"`;
}

/** The timer object of the API (`data` of GET /timers/{id}). */
export function timerView(record: TimerRecord, baseUrl?: string): Record<string, unknown> {
  const { definition, signing_secret } = timerData(record);
  const specific: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(definition)) if (!COMMON.has(k)) specific[k] = v;
  return {
    id: record.id,
    object: "timer",
    name: record.name,
    type: record.type,
    status: record.status,
    environment: record.environment,
    timezone: definition.timezone,
    deadline_at: null,
    ...specific,
    ...(signing_secret ? { signing_secret } : {}),
    look: definition.look,
    ended: definition.ended,
    metadata: definition.metadata ?? {},
    revision: revisionTag(record.revision),
    created_at: formatInstant(record.created_at),
    updated_at: formatInstant(record.updated_at),
    published_at: record.published_at === null ? null : formatInstant(record.published_at),
    // Public URLs exist only while the timer is published (drafts and archived timers are
    // never shown publicly).
    urls: record.status === "published" && baseUrl ? publicUrls(baseUrl, record.id) : null,
  };
}
