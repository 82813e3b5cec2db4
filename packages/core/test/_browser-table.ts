// Timers and instants on which `@tminus/core/browser` must answer exactly as the main entry:
// the shapes of the status and recurrence tables (every type, pauses, extensions, holds,
// COUNT/UNTIL, exception dates), each asked at instants around its zone's offset changes and
// its own deadlines. Shared by the Node test (the esbuild bundle against the main entry) and
// the Chromium test (the same bundle in a page, with the browser's own Intl).

import { type TimerDefinition, validateTimerCreate } from "../src/index";
import type { StatusInput, TimerClock } from "../src/status/types";

const HOUR = 3_600_000;

function define(body: Record<string, unknown>): TimerDefinition {
  const result = validateTimerCreate({ name: "table", ...body });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value;
}

const clock = (over: Partial<TimerClock> = {}): TimerClock => ({
  published_at: Date.parse("2026-01-01T00:00:00Z"),
  paused_at: null,
  paused_ms: 0,
  extended_seconds: 0,
  started_at: null,
  ...over,
});

const recurring = (timezone: string, rrule: string, dtstart: string, extra = {}) =>
  define({ type: "recurring", timezone, recurrence: { rrule, dtstart, ...extra } });

/** One row: a timer and the instants (epoch ms) it is asked about. */
export interface TableRow {
  name: string;
  input: StatusInput;
  instants: number[];
}

/** Instants a few steps either side of each anchor (ISO text), down to the millisecond. */
function around(...anchors: string[]): number[] {
  const steps = [-26 * HOUR, -90 * 60_000, -1000, -1, 0, 1, 999, 1000, 90 * 60_000, 26 * HOUR];
  return anchors.flatMap((a) => steps.map((s) => Date.parse(a) + s));
}

// The 2026 offset changes the rows are asked around.
const NEW_YORK = ["2026-03-08T07:00:00Z", "2026-11-01T06:00:00Z"];
const PARIS = ["2026-03-29T01:00:00Z", "2026-10-25T01:00:00Z"];
const LORD_HOWE = ["2026-04-04T15:00:00Z", "2026-10-03T15:30:00Z"];
const SANTIAGO = ["2026-04-05T03:00:00Z", "2026-09-06T04:00:00Z"];

export const BROWSER_TABLE: TableRow[] = [
  {
    name: "fixed, deadline_at",
    input: {
      definition: define({ type: "fixed", deadline_at: "2026-11-27T09:00:00+01:00" }),
      clock: clock(),
    },
    instants: around("2026-11-27T08:00:00Z", ...NEW_YORK),
  },
  {
    name: "fixed, deadline_local in a spring-forward gap",
    input: {
      definition: define({
        type: "fixed",
        timezone: "America/New_York",
        deadline_local: "2026-03-08T02:30",
      }),
      clock: clock(),
    },
    instants: around(...NEW_YORK, "2026-03-08T07:30:00Z"),
  },
  {
    name: "fixed, deadline_local in a fall-back overlap, paused and extended",
    input: {
      definition: define({
        type: "fixed",
        timezone: "Europe/Paris",
        deadline_local: "2026-10-25T02:30",
      }),
      clock: clock({ paused_ms: 90_000, extended_seconds: 3600 }),
    },
    instants: around(...PARIS),
  },
  {
    name: "fixed, paused",
    input: {
      definition: define({ type: "fixed", deadline_at: "2026-11-01T12:00:00Z" }),
      clock: clock({ paused_at: Date.parse("2026-10-31T12:00:00Z"), paused_ms: 5000 }),
    },
    instants: around("2026-10-31T12:00:00Z", ...NEW_YORK),
  },
  {
    name: "duration, from publication, capped by not_after",
    input: {
      definition: define({
        type: "duration",
        duration_seconds: 7 * 86_400,
        not_after: "2026-01-05T00:00:00Z",
      }),
      clock: clock(),
    },
    instants: around("2026-01-05T00:00:00Z", "2026-01-02T00:00:00Z"),
  },
  {
    name: "duration, a viewer's own start, not started before it",
    input: {
      definition: define({ type: "duration", duration_seconds: 3 * 86_400 }),
      clock: clock({ published_at: null }),
      viewer: { start_at: Date.parse("2026-03-07T12:00:00Z") },
    },
    instants: around(...NEW_YORK, "2026-03-10T12:00:00Z"),
  },
  {
    name: "duration, never published",
    input: {
      definition: define({ type: "duration", duration_seconds: 3600 }),
      clock: clock({ published_at: null }),
    },
    instants: around("2026-03-08T07:00:00Z"),
  },
  {
    name: "personalized, the viewer's deadline clamped to max_seconds",
    input: {
      definition: define({
        type: "personalized",
        personalization: { source: "deadline", max_seconds: 86_400 },
      }),
      clock: clock(),
      viewer: { deadline_at: Date.parse("2026-03-09T00:00:00Z") },
    },
    instants: around(...NEW_YORK),
  },
  {
    name: "personalized, a recipient's start in the future",
    input: {
      definition: define({
        type: "personalized",
        personalization: { source: "start", offset_seconds: 86_400 },
      }),
      clock: clock(),
      viewer: { start_at: Date.parse("2026-03-08T12:00:00Z") },
    },
    instants: around(...NEW_YORK),
  },
  {
    name: "personalized, fallback and none",
    input: {
      definition: define({
        type: "personalized",
        personalization: { source: "deadline", fallback_deadline_at: "2026-03-08T03:00:00-05:00" },
      }),
      clock: clock(),
    },
    instants: around(...NEW_YORK),
  },
  {
    name: "recurring, daily 01:30 New York, through both changes",
    input: {
      definition: recurring(
        "America/New_York",
        "FREQ=DAILY;BYHOUR=1;BYMINUTE=30",
        "2026-01-01T01:30",
      ),
      clock: clock(),
    },
    instants: around(...NEW_YORK),
  },
  {
    name: "recurring, daily 02:30 New York (in the gap), with a hold",
    input: {
      definition: recurring("America/New_York", "FREQ=DAILY", "2026-01-01T02:30", {
        ended_hold_seconds: 3600,
      }),
      clock: clock(),
    },
    instants: around(...NEW_YORK, "2026-03-08T07:30:00Z", "2026-03-09T06:30:00Z"),
  },
  {
    name: "recurring, weekly Sunday 02:15 Paris, paused and extended",
    input: {
      definition: recurring("Europe/Paris", "FREQ=WEEKLY;BYDAY=SU", "2026-01-04T02:15"),
      clock: clock({ paused_ms: 60_000, extended_seconds: 600 }),
    },
    instants: around(...PARIS),
  },
  {
    name: "recurring, Lord Howe's half-hour change, every 2 days",
    input: {
      definition: recurring(
        "Australia/Lord_Howe",
        "FREQ=DAILY;INTERVAL=2;BYHOUR=1;BYMINUTE=45",
        "2026-01-01T01:45",
      ),
      clock: clock(),
    },
    instants: around(...LORD_HOWE),
  },
  {
    name: "recurring, Santiago's midnight change, monthly on the first Sunday",
    input: {
      definition: recurring("America/Santiago", "FREQ=MONTHLY;BYDAY=1SU", "2026-01-04T00:00"),
      clock: clock(),
    },
    instants: around(...SANTIAGO),
  },
  {
    name: "recurring, COUNT with an exception date, ended for good",
    input: {
      definition: recurring("America/New_York", "FREQ=DAILY;COUNT=5", "2026-03-06T09:00", {
        exdates: ["2026-03-08T09:00"],
        ended_hold_seconds: 120,
      }),
      clock: clock(),
    },
    instants: around(...NEW_YORK, "2026-03-10T13:00:00Z", "2026-03-11T13:02:00Z"),
  },
  {
    name: "recurring, UNTIL a date, monthly on the last day",
    input: {
      definition: recurring(
        "Europe/Paris",
        "FREQ=MONTHLY;BYMONTHDAY=-1;BYHOUR=23;UNTIL=20261231",
        "2026-01-31T23:00",
      ),
      clock: clock(),
    },
    instants: around(...PARIS, "2026-12-31T22:00:00Z"),
  },
  {
    name: "recurring, paused across a change",
    input: {
      definition: recurring("America/New_York", "FREQ=DAILY;BYHOUR=9", "2026-01-01T09:00"),
      clock: clock({ paused_at: Date.parse("2026-03-07T20:00:00Z") }),
    },
    instants: around(...NEW_YORK),
  },
];
