// The timer as the API, webhooks and the dashboard show it. It lives here, below every
// package that shows a timer, so that the API's responses and the events a webhook worker
// sends (possibly in another process) are built by the same function.
import { COMMON_FIELD_NAMES, shownCommonFields } from "../schema/common-fields";
import type { TimerStatus, TimerType } from "../schema/constants";
import type { TimerDefinition } from "../schema/timer";
import { fixedDeadlineMs } from "../status/fixed";
import type { TimerClock } from "../status/types";
import { formatInstant } from "../time/offset-date-time";
import { publicUrls } from "./public-urls";

/**
 * A stored timer row, declared structurally: `@tminus/store`'s `TimerRecord` fits it, and core
 * depends on no storage package.
 */
export interface TimerRow {
  id: string;
  name: string;
  type: TimerType;
  status: TimerStatus;
  environment: string;
  revision: number;
  created_at: number;
  updated_at: number;
  published_at: number | null;
  data: Record<string, unknown>;
}

/** What a timer row keeps in its `data`: the definition, the clock, and a signing secret. */
export interface TimerData {
  definition: TimerDefinition;
  clock: TimerClock;
  /** Personalized timers: the HMAC key recipients' URL parameters are signed with. */
  signing_secret?: string;
  /** The public base URL the timer was created under (for processes without a request). */
  origin?: string;
}

/** The definition and clock stored in a timer row. */
export function timerData(row: Pick<TimerRow, "data">): TimerData {
  return row.data as unknown as TimerData;
}

/** The revision as clients see it: opaque, sent back in If-Match. */
export function revisionTag(revision: number): string {
  return `r${revision}`;
}

// What is not one type's own: `type` and the common fields (shown in their own places).
const COMMON = new Set<string>(["type", ...COMMON_FIELD_NAMES]);

/**
 * The timer object (`data` of `GET /timers/{id}`, and of every timer event). `baseUrl` is the
 * origin (plus mount prefix) its public URLs are built on; without it `urls` is null.
 */
export function timerView(row: TimerRow, baseUrl?: string): Record<string, unknown> {
  const { definition, signing_secret } = timerData(row);
  // The name is the row's own column; any common field without a place of its own below
  // follows `ended`.
  const {
    name: _,
    timezone,
    look,
    ended,
    metadata,
    ...otherCommon
  } = shownCommonFields(definition);
  const specific: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(definition)) if (!COMMON.has(k)) specific[k] = v;
  if (definition.type === "fixed") {
    // Both forms, always: the instant as resolved now (see fixedDeadlineMs), and the
    // wall-clock time the client gave, or null when it gave an instant.
    specific["deadline_at"] = formatInstant(fixedDeadlineMs(definition));
    specific["deadline_local"] = definition.deadline_local ?? null;
  }
  // Rows stored before the field existed read as its default.
  if (definition.type === "fixed" || definition.type === "recurring")
    specific["allow_viewer_timezone"] = definition.allow_viewer_timezone ?? false;
  if (definition.type === "duration") specific["start_on"] = definition.start_on ?? "first_open";
  return {
    id: row.id,
    object: "timer",
    name: row.name,
    type: row.type,
    status: row.status,
    environment: row.environment,
    timezone,
    deadline_at: null,
    ...specific,
    ...(signing_secret ? { signing_secret } : {}),
    look,
    ended,
    ...otherCommon,
    metadata,
    revision: revisionTag(row.revision),
    created_at: formatInstant(row.created_at),
    updated_at: formatInstant(row.updated_at),
    published_at: row.published_at === null ? null : formatInstant(row.published_at),
    // Public URLs exist only while the timer is published (drafts and archived timers are
    // never shown publicly).
    urls: row.status === "published" && baseUrl ? publicUrls(baseUrl, row.id) : null,
  };
}
