// @tminus/core: pure countdown math. Nothing here reads a clock, the machine's
// time zone or the network; `now` is always an argument.

export { labelLanguage, type UnitLabelOverrides, unitLabel } from "./format/labels";
export { type FormatPartsOptions, type FormattedPart, formatParts } from "./format/parts";
export { type RemainingPart, type SplitOptions, splitRemaining } from "./format/split";
export { escapeHtml } from "./html/escape";
export { type ImageInput, type ImageInputOptions, imageInputOf } from "./image/input";
export { IMAGE_SIZE, snapHeight, snapWidth } from "./image/size";
// Recipient-URL signing and recurrence expansion have their own public surfaces.
export * from "./personalize/index";
export * from "./recurrence/index";
export {
  EMBED_SCRIPT_PATH,
  PUBLIC_PREFIX,
  type PublicUrls,
  publicUrls,
} from "./resource/public-urls";
export {
  revisionTag,
  type TimerData,
  type TimerRow,
  timerData,
  timerView,
} from "./resource/timer-view";
export {
  DEFAULT_TIMEZONE,
  MAX_DURATION_SECONDS,
  TIMER_STATUSES,
  TIMER_TYPES,
  type TimerStatus,
  type TimerType,
} from "./schema/constants";
export { DEFAULT_ENDED, type Ended, endedSchema } from "./schema/ended";
export { fixedDeadlineIssues } from "./schema/fixed-deadline";
export {
  fieldPath,
  toValidationIssues,
  type ValidationIssue,
  type ValidationResult,
} from "./schema/issues";
export {
  CTA_LABEL_MAX,
  currentLook,
  DARK_PALETTE,
  DEFAULT_LOOK,
  type Look,
  type LookColors,
  type LookInput,
  lookInputSchema,
  lookOutputSchema,
  lookSchema,
  resolveLook,
} from "./schema/look";
export {
  applyTimerPatch,
  type TimerPatch,
  timerPatchSchemas,
  validateTimerPatch,
} from "./schema/patch";
export {
  type DurationTimerDefinition,
  durationTimerSchema,
  type FixedTimerDefinition,
  fixedTimerSchema,
  type PersonalizedTimerDefinition,
  personalizationSchema,
  personalizedTimerSchema,
  type RecurringTimerDefinition,
  recurrenceSchema,
  recurringTimerSchema,
  START_ON,
  type TimerCreateInput,
  type TimerDefinition,
  timerCreateSchema,
  timerSchemas,
} from "./schema/timer";
export { isPlainObject, validateTimerCreate } from "./schema/validate";
export { clockIssue, emptyClock } from "./status/clock";
export { durationStatus } from "./status/duration";
export { fixedDeadlineMs, fixedStatus } from "./status/fixed";
export { computeStatus } from "./status/index";
export { personalizedStatus } from "./status/personalized";
export { recurringStatus } from "./status/recurring";
export { remainingParts, statusFromTarget } from "./status/remaining";
export type {
  RemainingTime,
  StatusInput,
  TimerClock,
  TimerState,
  TimerStatusResult,
  ViewerContext,
} from "./status/types";
export {
  followsViewerTimezone,
  inViewerTimezone,
  type ViewerTimezoneResult,
} from "./status/viewer-timezone";
export {
  formatLocalDateTime,
  type LocalDateTime,
  parseLocalDateTime,
} from "./time/local-date-time";
export { formatInstant, parseOffsetDateTime } from "./time/offset-date-time";
export {
  describeTimeZone,
  formatUtcOffset,
  isCanonicalTimeZone,
  type TimeZoneDescription,
  TZDB_VERSION,
  timeZoneNames,
} from "./time/timezones";
export { TIME_UNITS, type TimeUnit, UNIT_SECONDS } from "./time/units";
