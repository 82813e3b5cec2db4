// @tminus/core: pure countdown math. Nothing here reads a clock, the machine's
// time zone or the network; `now` is always an argument.

// Everything the browser entry has (the countdown math and its formatting), then the rest.
export * from "./browser";
export { escapeHtml } from "./html/escape";
export {
  type ImageInput,
  type ImageInputOptions,
  imageInputOf,
  type UploadedFont,
} from "./image/input";
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
export { DEFAULT_TIMEZONE, MAX_DURATION_SECONDS } from "./schema/constants";
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
  UNIT_LABEL_MAX,
} from "./schema/look";
export {
  applyTimerPatch,
  type TimerPatch,
  timerPatchSchemas,
  validateTimerPatch,
} from "./schema/patch";
export {
  durationTimerSchema,
  fixedTimerSchema,
  personalizationSchema,
  personalizedTimerSchema,
  recurrenceSchema,
  recurringTimerSchema,
  START_ON,
  type TimerCreateInput,
  timerCreateSchema,
  timerSchemas,
} from "./schema/timer";
export { isPlainObject, validateTimerCreate } from "./schema/validate";
export { durationStatus } from "./status/duration";
export { fixedDeadlineMs, fixedStatus } from "./status/fixed";
export { personalizedStatus } from "./status/personalized";
export { recurringStatus } from "./status/recurring";
export { statusFromTarget } from "./status/remaining";
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
export { formatInstant } from "./time/offset-date-time";
export {
  describeTimeZone,
  formatUtcOffset,
  isCanonicalTimeZone,
  type TimeZoneDescription,
  TZDB_VERSION,
  timeZoneNames,
} from "./time/timezones";
export { adviseTimeZone, type TimeZoneAdvice, timeZoneAdviceText } from "./time/zone-advice";
