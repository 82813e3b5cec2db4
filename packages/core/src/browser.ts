// @tminus/core/browser: the countdown math and its formatting for a web page, without the
// schemas, the zone list or the personalization signing (scripts/browser-size.mjs keeps it
// under 15 KB gzipped). The same modules as the main entry, so the same answers: the zone
// offsets come from the browser's Intl, as the server's come from Node's.

export { labelLanguage, type UnitLabelOverrides, unitLabel } from "./format/labels";
export { type FormatPartsOptions, type FormattedPart, formatParts } from "./format/parts";
export {
  type RemainingPart,
  remainingSplitter,
  type SplitOptions,
  splitRemaining,
  withoutLeadingZeroUnits,
} from "./format/split";
export { TIMER_STATUSES, TIMER_TYPES, type TimerStatus, type TimerType } from "./schema/constants";
export type {
  DurationTimerDefinition,
  FixedTimerDefinition,
  PersonalizedTimerDefinition,
  RecurringTimerDefinition,
  TimerDefinition,
} from "./schema/timer";
export { clockIssue, emptyClock } from "./status/clock";
export { computeStatus } from "./status/index";
export { remainingParts } from "./status/remaining";
export type {
  RemainingTime,
  StatusInput,
  TimerClock,
  TimerState,
  TimerStatusResult,
  ViewerContext,
} from "./status/types";
export { parseOffsetDateTime } from "./time/offset-date-time";
export { TIME_UNITS, type TimeUnit, UNIT_SECONDS } from "./time/units";
