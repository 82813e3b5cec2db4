import { zoneOffsetMs } from "@tminus/core";

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
 * An instant as the wall time in `zone`: "Fri 27 Nov, 17:00 Berlin", with the UTC time
 * after it when the zone is not UTC ("(16:00 UTC)").
 */
export function inZone(ms: number, zone: string): string {
  const wall = new Date(ms + zoneOffsetMs(zone, ms));
  const city = zoneCity(zone);
  const text = `${dayOf(wall)}, ${wall.toISOString().slice(11, 16)} ${city}`;
  return city === "UTC" ? text : `${text} (${new Date(ms).toISOString().slice(11, 16)} UTC)`;
}

/** A `YYYY-MM-DD` date as "Thu 3 Dec". */
export function zoneDay(date: string): string {
  const wall = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(wall.getTime()) ? date : dayOf(wall);
}
