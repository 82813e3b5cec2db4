import type { RecurringTimerDefinition } from "@tminus/core";
import { zoneCity } from "./zone-time";

// A recurring timer's rule in a reader's words, with no date in it: true on any day the email
// is opened ("every Friday at 17:00 Berlin time").

const DAY_NAMES: Readonly<Record<string, string>> = {
  MO: "Monday",
  TU: "Tuesday",
  WE: "Wednesday",
  TH: "Thursday",
  FR: "Friday",
  SA: "Saturday",
  SU: "Sunday",
};

const UNITS: Readonly<Record<string, string>> = { DAILY: "day", WEEKLY: "week", MONTHLY: "month" };

/** "every Friday at 17:00 Berlin time", "every 2 weeks on Monday and Thursday at 09:30 UTC". */
export function ruleInWords(
  definition: Pick<RecurringTimerDefinition, "recurrence" | "timezone">,
): string {
  const rule = new Map(
    definition.recurrence.rrule.split(";").map((part) => part.split("=") as [string, string]),
  );
  const freq = rule.get("FREQ") ?? "WEEKLY";
  const interval = Number(rule.get("INTERVAL") ?? "1") || 1;
  const unit = UNITS[freq] ?? "week";
  const days = (rule.get("BYDAY") ?? "")
    .split(",")
    .filter(Boolean)
    .map((code) => DAY_NAMES[code.slice(-2)] ?? code);
  const list =
    days.length <= 1 ? (days[0] ?? "") : `${days.slice(0, -1).join(", ")} and ${days.at(-1)}`;
  let when: string;
  if (freq === "WEEKLY" && days.length > 0) {
    when = interval === 1 ? `every ${list}` : `every ${interval} weeks on ${list}`;
  } else {
    when = interval === 1 ? `every ${unit}` : `every ${interval} ${unit}s`;
    if (freq === "MONTHLY" && rule.has("BYMONTHDAY")) when += ` on day ${rule.get("BYMONTHDAY")}`;
  }
  // The rule's time, else the first occurrence's.
  const start = definition.recurrence.dtstart.slice(11, 16);
  const hour = rule.get("BYHOUR") ?? start.slice(0, 2);
  const minute = rule.get("BYMINUTE") ?? start.slice(3, 5);
  const time = `${hour.split(",")[0]!.padStart(2, "0")}:${minute.split(",")[0]!.padStart(2, "0")}`;
  const city = zoneCity(definition.timezone);
  return `${when} at ${time} ${city === "UTC" ? "UTC" : `${city} time`}`;
}
