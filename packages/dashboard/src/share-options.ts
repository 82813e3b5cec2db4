// The share panel's choices, read from the timer page's query so that they work without
// script (a GET form); the script only submits the same form as you type.

import { IMAGE_SIZE, type TimerDefinition, type TimerStatusResult } from "@tminus/core";
import { plural } from "./words";
import { inZone } from "./zone-time";

/** The email platforms the share panel writes merge tags for, in the order of its list. */
export const EMAIL_PLATFORMS = [
  "Mailchimp",
  "Klaviyo",
  "HubSpot",
  "Braze",
  "Salesforce Marketing Cloud",
  "Customer.io",
  "SendGrid",
  "Brevo",
] as const;

/** One of the email platforms. */
export type EmailPlatform = (typeof EMAIL_PLATFORMS)[number];

/** Longest alt text the panel takes: screen readers read alt text whole. */
export const ALT_MAX = 200;
/** A contact field's name: letters, digits and `_`, as every listed platform accepts. */
export const FIELD_PATTERN = "[A-Za-z][A-Za-z0-9_]{0,49}";
const FIELD = new RegExp(`^${FIELD_PATTERN}$`);

/** What the share panel was asked for. */
export interface ShareOptions {
  platform: EmailPlatform;
  /** Width the email shows the image at, in CSS pixels. */
  width: number;
  /** Whether the image is drawn at twice that width, for sharp 2x screens. */
  retina: boolean;
  /** The alt text typed, or null for the default. */
  alt: string | null;
  /** The contact field that holds the recipient's id or deadline, or null for the default. */
  field: string | null;
}

/**
 * The share panel's options from a timer page's query; a value out of range or unknown falls
 * back to its default (the form says the ranges), never an error.
 */
export function shareOptionsOf(query: URLSearchParams, naturalWidth: number): ShareOptions {
  const platform = EMAIL_PLATFORMS.find((p) => p === query.get("platform")) ?? "Mailchimp";
  const asked = Number(query.get("width") ?? "");
  const width =
    query.get("width") && Number.isInteger(asked)
      ? Math.min(IMAGE_SIZE.maxWidth, Math.max(IMAGE_SIZE.minWidth, asked))
      : naturalWidth;
  const alt = (query.get("alt") ?? "").trim().slice(0, ALT_MAX);
  const field = (query.get("field") ?? "").trim();
  return {
    platform,
    width,
    retina: query.get("retina") === "2",
    alt: alt === "" ? null : alt,
    field: FIELD.test(field) ? field : null,
  };
}

/** The width the image is drawn at: twice the shown width on 2x, within the image limits. */
export function drawnWidth(options: ShareOptions): number {
  return Math.min(IMAGE_SIZE.maxWidth, options.retina ? options.width * 2 : options.width);
}

/** A length in its largest whole unit, in words: "3 days", "5 hours", "20 minutes". */
function lengthInWords(seconds: number): string {
  if (seconds >= 86_400 && seconds % 86_400 === 0) return plural(seconds / 86_400, "day");
  if (seconds >= 3_600 && seconds % 3_600 === 0) return plural(seconds / 3_600, "hour");
  return plural(Math.max(1, Math.round(seconds / 60)), "minute");
}

/**
 * The alt text an email image gets by default: what it counts to, in words in the timer's
 * zone ("Countdown to Fri 27 Nov, 17:00 Berlin time"), not the timer's internal name.
 */
export function defaultAlt(
  at: { definition: TimerDefinition; status: TimerStatusResult } | null,
): string {
  if (!at) return "Countdown";
  const { definition, status } = at;
  if (definition.type === "duration") {
    return `Countdown: ${lengthInWords(definition.duration_seconds)} from when you open this email`;
  }
  if (definition.type === "personalized") return "Countdown to your deadline";
  const target =
    definition.type === "recurring" ? (status.next_occurrence_at ?? null) : status.target_at;
  if (target === null) return "Countdown: ended";
  // The UTC time inZone adds is for the dashboard's reader, not the email's.
  return `Countdown to ${inZone(target, definition.timezone).replace(/ \(\d\d:\d\d UTC\)$/, "")}`;
}
