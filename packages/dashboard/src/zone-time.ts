import { zoneOffsetMs } from "@tminus/core";
import { html, type SafeHtml } from "./html";

// Times as a marketer reads them: in the timer's own zone, named by its city.

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] as const;
const MONTHS = [
  "Jan",
  "Feb",
  "Mar",
  "Apr",
  "May",
  "Jun",
  "Jul",
  "Aug",
  "Sep",
  "Oct",
  "Nov",
  "Dec",
] as const;

/** A zone's short name: its city ("Europe/Berlin" is "Berlin"), or "UTC". */
export function zoneCity(zone: string): string {
  if (zone === "UTC" || zone === "Etc/UTC" || zone === "Etc/GMT") return "UTC";
  return (zone.split("/").pop() ?? zone).replaceAll("_", " ");
}

/** "Fri 27 Nov" of a wall-clock date held in a Date's UTC fields. */
function dayOf(wall: Date): string {
  return `${DAYS[wall.getUTCDay()]} ${wall.getUTCDate()} ${MONTHS[wall.getUTCMonth()]}`;
}

/**
 * An instant as the wall time in `zone`, in words: "Fri 27 Nov, 17:00 Berlin time", with the
 * UTC time after it when the zone is not UTC ("(16:00 UTC)"), and its day when UTC is on
 * another day already ("Fri 4 Dec, 23:59 New York time (Sat 04:59 UTC)").
 */
export function inZone(ms: number, zone: string): string {
  const wall = new Date(ms + zoneOffsetMs(zone, ms));
  const city = zoneCity(zone);
  if (city === "UTC") return `${dayOf(wall)}, ${wall.toISOString().slice(11, 16)} UTC`;
  const text = `${dayOf(wall)}, ${wall.toISOString().slice(11, 16)} ${city} time`;
  const utc = new Date(ms);
  const otherDay = utc.getUTCDate() !== wall.getUTCDate() ? `${dayOf(utc)} ` : "";
  return `${text} (${otherDay}${utc.toISOString().slice(11, 16)} UTC)`;
}

// English locales that name zones by letters ("EST", "CET", "AEDT", "IST"); the first that
// has letters for a zone names it, else its offset ("GMT+9") is the name.
const NAMING_LOCALES = ["en-US", "en-GB", "en-AU", "en-IN"] as const;

/** The zone's abbreviation at `ms`: "CET", "EST", "AEDT", or "GMT+9" when it has none. */
export function zoneAbbreviation(ms: number, zone: string): string {
  let offsetName = "UTC";
  for (const locale of NAMING_LOCALES) {
    const name = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: "short" })
      .formatToParts(ms)
      .find((p) => p.type === "timeZoneName")?.value;
    if (!name) continue;
    if (!/^(GMT|UTC)[+-]/.test(name)) return name;
    offsetName = name;
  }
  return offsetName;
}

/** "2026-11-26 19:30 UTC": the instant in UTC, as the dashboard's hover text gives it. */
export function utcText(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/**
 * An instant for the page: "Thu 26 Nov, 20:30 CET" in the timer's zone, with UTC on hover
 * (title) and the machine-readable instant (datetime); a dash when there is none.
 */
export function zoneTime(at: number | string | null | undefined, zone: string): SafeHtml {
  const ms = typeof at === "string" ? Date.parse(at) : at;
  if (ms === null || ms === undefined || Number.isNaN(ms)) return html`—`;
  let wall: Date;
  let name: string;
  try {
    wall = new Date(ms + zoneOffsetMs(zone, ms));
    name = zoneAbbreviation(ms, zone);
  } catch {
    wall = new Date(ms);
    name = "UTC";
  }
  const text = `${dayOf(wall)} ${wall.getUTCFullYear()}, ${wall.toISOString().slice(11, 16)} ${name}`;
  return html`<time datetime="${new Date(ms).toISOString()}" title="${utcText(ms)}">${text}</time>`;
}

/** A `YYYY-MM-DD` date as "Thu 3 Dec". */
export function zoneDay(date: string): string {
  const wall = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(wall.getTime()) ? date : dayOf(wall);
}
