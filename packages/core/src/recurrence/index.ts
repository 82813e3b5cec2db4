// Public surface of the recurrence engine.
export { compileRecurrence, type RecurrenceSpec } from "./compile";
export { nextOccurrence, occurrencesBetween, previousOccurrence } from "./occurrences";
export { resolveLocal } from "./resolve";
export {
  type ParseRRuleResult,
  parseRRule,
  type RRule,
  type RRuleFrequency,
  type RRuleUntil,
  type RRuleWeekday,
  type Weekday,
} from "./rrule";
export { createSchedule, type RecurrenceOptions, type Schedule } from "./schedule";
export { zoneDaysWithTwoChanges } from "./zone-days";
export { type ZoneDataCheck, zoneDataCheck, zoneOffsetMs } from "./zone-offset";
