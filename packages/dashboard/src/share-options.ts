// The share panel's choices, read from the timer page's query so that they work without
// script (a GET form); the script only submits the same form as you type.

import { IMAGE_SIZE, type TimerDefinition, type TimerStatusResult } from "@tminus/core";
import { EMAIL_PLATFORMS, type EmailPlatform } from "./email-platforms";
import { ruleInWords } from "./rule-words";
import { plural } from "./words";
import { inZone } from "./zone-time";

/** The alt texts of a timer's email images: per recipient, and the one everyone shares. */
export interface SnippetAlts {
  /** The per-recipient image's (and every other image's) alt text. */
  recipient: string;
  /** An evergreen timer's shared image: it counts from the timer's start, not each open. */
  shared: string;
}

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
  /** Whether the image is drawn at twice that width and height (`scale=2`), for sharp 2x screens. */
  retina: boolean;
  /** Whether the snippet adds the dark picture (`variant=dark`) for mail apps in dark mode. */
  dark: boolean;
  /** The alt text typed, or null for the default. */
  alt: string | null;
  /** The contact field that holds the recipient's id or deadline, or null for the default. */
  field: string | null;
  /**
   * The send's campaign label the email's image and link carry (`c`), so its views and clicks
   * are told apart from other sends of the timer; null: none.
   */
  campaign?: string | null;
}

/** Longest campaign label: the API keeps 64 characters of a label (docs/analytics.md). */
export const CAMPAIGN_MAX = 64;

/** The hidden field the share form always sends: a query with it is the form's, checkboxes included. */
export const SHARE_FORM_MARK = "share";

/**
 * The share panel's options from a timer page's query; a value out of range or unknown falls
 * back to its default (the form says the ranges), never an error. Dark mode is on by default
 * when the timer's look has a dark variant, until the form says otherwise.
 */
export function shareOptionsOf(
  query: URLSearchParams,
  naturalWidth: number,
  defaults: { dark: boolean } = { dark: false },
): ShareOptions {
  const platform = EMAIL_PLATFORMS.find((p) => p === query.get("platform")) ?? "Mailchimp";
  const asked = Number(query.get("width") ?? "");
  const width =
    query.get("width") && Number.isInteger(asked)
      ? Math.min(IMAGE_SIZE.maxWidth, Math.max(IMAGE_SIZE.minWidth, asked))
      : naturalWidth;
  const alt = (query.get("alt") ?? "").trim().slice(0, ALT_MAX);
  const field = (query.get("field") ?? "").trim();
  const campaign = [...(query.get("campaign") ?? "").trim()].slice(0, CAMPAIGN_MAX).join("");
  return {
    platform,
    width,
    retina: query.get("retina") === "2",
    // An unticked checkbox sends nothing: only the form's own query can turn the default off.
    dark:
      query.has(SHARE_FORM_MARK) || query.has("dark") ? query.get("dark") === "1" : defaults.dark,
    alt: alt === "" ? null : alt,
    field: FIELD.test(field) ? field : null,
    campaign: campaign === "" ? null : campaign,
  };
}

/** The width the image is drawn at: twice the shown width on 2x (`scale=2`). */
export function drawnWidth(options: Pick<ShareOptions, "width" | "retina">): number {
  return options.retina ? options.width * 2 : options.width;
}

/** A length in words, days and hours apart: "3 days", "2 days 5 hours", "20 minutes". */
export function lengthInWords(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3_600);
  const minutes = Math.round((seconds % 3_600) / 60);
  const parts = [
    days > 0 ? plural(days, "day") : "",
    hours > 0 ? plural(hours, "hour") : "",
    minutes > 0 ? plural(minutes, "minute") : "",
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(" ") : "1 minute";
}

/**
 * The alt texts an email image gets by default: what it counts to, in words that stay true
 * whenever the email is opened, never the timer's internal name. A fixed deadline in the
 * timer's zone ("Countdown to Fri 27 Nov, 17:00 Berlin time"); a recurring timer's rule, not
 * its next date ("Countdown to the next one: every Friday at 17:00 Berlin time"); an
 * evergreen timer's length from the recipient's own first open, and for the image everyone
 * shares, from the timer's start.
 */
export function defaultAlts(
  at: { definition: TimerDefinition; status: TimerStatusResult } | null,
  sharedStart: string | null = null,
): SnippetAlts {
  const same = (text: string) => ({ recipient: text, shared: text });
  if (!at) return same("Countdown");
  const { definition, status } = at;
  if (definition.type === "duration") {
    const length = lengthInWords(definition.duration_seconds);
    return {
      recipient: `Countdown: ${length} from when you first open this email`,
      shared: sharedStart
        ? `Countdown: ${length} from ${sharedStart.replace(/ \(.*UTC\)$/, "")}`
        : `Countdown: ${length} from the start of this offer`,
    };
  }
  if (definition.type === "personalized") return same("Countdown to your deadline");
  if (definition.type === "recurring") {
    return same(`Countdown to the next one: ${ruleInWords(definition)}`);
  }
  if (status.target_at === null) return same("Countdown: ended");
  // The UTC time inZone adds is for the dashboard's reader, not the email's.
  return same(
    `Countdown to ${inZone(status.target_at, definition.timezone).replace(/ \(.*UTC\)$/, "")}`,
  );
}

/** The recipient's default alt text (see {@link defaultAlts}). */
export function defaultAlt(
  at: { definition: TimerDefinition; status: TimerStatusResult } | null,
): string {
  return defaultAlts(at).recipient;
}
