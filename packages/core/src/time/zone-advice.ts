// What to say when a time zone name is refused: the canonical zones the person probably
// meant ("New York" -> America/New_York, "EST" -> America/New_York) and, where the name is
// an abbreviation or an offset, why that is not a zone. Only refused names get here.
import { timeZoneNames } from "./timezones";

/** Canonical zones a refused name probably meant, and why the name itself is not one. */
export interface TimeZoneAdvice {
  /** Canonical zone names, most likely first (at most 3); empty when nothing fits. */
  suggestions: string[];
  /** Why the name is not a zone, when that is not obvious (an abbreviation, an offset). */
  why: string | null;
}

// An abbreviation names a clock for part of the year, not a place: the zone of the city
// most people mean by it switches between the abbreviations as the place does. Each names one
// to three canonical zones, most likely first (the tests check the table against tz data).
type Abbreviation = readonly [zones: readonly string[], meaning: string];
export const ABBREVIATIONS: ReadonlyMap<string, Abbreviation> = new Map(
  Object.entries({
    EST: [["America/New_York"], "Eastern Standard Time"],
    EDT: [["America/New_York"], "Eastern Daylight Time"],
    ET: [["America/New_York"], "Eastern Time"],
    CST: [["America/Chicago"], "Central Standard Time"],
    CDT: [["America/Chicago"], "Central Daylight Time"],
    CT: [["America/Chicago"], "Central Time"],
    MST: [["America/Denver", "America/Phoenix"], "Mountain Standard Time"],
    MDT: [["America/Denver"], "Mountain Daylight Time"],
    MT: [["America/Denver"], "Mountain Time"],
    PST: [["America/Los_Angeles"], "Pacific Standard Time"],
    PDT: [["America/Los_Angeles"], "Pacific Daylight Time"],
    PT: [["America/Los_Angeles"], "Pacific Time"],
    AKST: [["America/Anchorage"], "Alaska Standard Time"],
    HST: [["Pacific/Honolulu"], "Hawaii Standard Time"],
    AST: [["America/Halifax"], "Atlantic Standard Time"],
    NST: [["America/St_Johns"], "Newfoundland Standard Time"],
    GMT: [["Etc/UTC", "Europe/London"], "Greenwich Mean Time"],
    UTC: [["Etc/UTC"], "Coordinated Universal Time"],
    Z: [["Etc/UTC"], "UTC"],
    BST: [["Europe/London"], "British Summer Time"],
    WET: [["Europe/Lisbon"], "Western European Time"],
    CET: [["Europe/Berlin", "Europe/Paris"], "Central European Time"],
    CEST: [["Europe/Berlin", "Europe/Paris"], "Central European Summer Time"],
    EET: [["Europe/Athens", "Europe/Helsinki"], "Eastern European Time"],
    EEST: [["Europe/Athens", "Europe/Helsinki"], "Eastern European Summer Time"],
    MSK: [["Europe/Moscow"], "Moscow Time"],
    IST: [
      ["Asia/Kolkata", "Europe/Dublin", "Asia/Jerusalem"],
      "India, Irish or Israel Standard Time",
    ],
    PKT: [["Asia/Karachi"], "Pakistan Standard Time"],
    ICT: [["Asia/Bangkok"], "Indochina Time"],
    WIB: [["Asia/Jakarta"], "Western Indonesia Time"],
    SGT: [["Asia/Singapore"], "Singapore Time"],
    HKT: [["Asia/Hong_Kong"], "Hong Kong Time"],
    JST: [["Asia/Tokyo"], "Japan Standard Time"],
    KST: [["Asia/Seoul"], "Korea Standard Time"],
    AEST: [["Australia/Sydney", "Australia/Brisbane"], "Australian Eastern Standard Time"],
    AEDT: [["Australia/Sydney"], "Australian Eastern Daylight Time"],
    ACST: [["Australia/Adelaide"], "Australian Central Standard Time"],
    AWST: [["Australia/Perth"], "Australian Western Standard Time"],
    NZST: [["Pacific/Auckland"], "New Zealand Standard Time"],
    NZDT: [["Pacific/Auckland"], "New Zealand Daylight Time"],
    BRT: [["America/Sao_Paulo"], "Brasília Time"],
    ART: [["America/Argentina/Buenos_Aires"], "Argentina Time"],
    SAST: [["Africa/Johannesburg"], "South Africa Standard Time"],
    WAT: [["Africa/Lagos"], "West Africa Time"],
    EAT: [["Africa/Nairobi"], "East Africa Time"],
  } satisfies Record<string, Abbreviation>),
);

// Old names the tz database keeps only as links, and places that are no zone's city: each
// answered with one canonical zone (checked by the tests).
export const ALIASES: Readonly<Record<string, string>> = {
  "us/eastern": "America/New_York",
  "us/central": "America/Chicago",
  "us/mountain": "America/Denver",
  "us/pacific": "America/Los_Angeles",
  "us/alaska": "America/Anchorage",
  "us/hawaii": "Pacific/Honolulu",
  "us/arizona": "America/Phoenix",
  "canada/eastern": "America/Toronto",
  "canada/pacific": "America/Vancouver",
  "asia/calcutta": "Asia/Kolkata",
  "asia/saigon": "Asia/Ho_Chi_Minh",
  "asia/katmandu": "Asia/Kathmandu",
  "asia/rangoon": "Asia/Yangon",
  "europe/kiev": "Europe/Kyiv",
  "america/buenos_aires": "America/Argentina/Buenos_Aires",
  "australia/act": "Australia/Sydney",
  "australia/nsw": "Australia/Sydney",
  utc: "Etc/UTC",
  "etc/gmt": "Etc/UTC",
  gmt: "Etc/UTC",
  washington: "America/New_York",
  washington_dc: "America/New_York",
  boston: "America/New_York",
  miami: "America/New_York",
  atlanta: "America/New_York",
  philadelphia: "America/New_York",
  nyc: "America/New_York",
  new_york_city: "America/New_York",
  dallas: "America/Chicago",
  houston: "America/Chicago",
  san_francisco: "America/Los_Angeles",
  seattle: "America/Los_Angeles",
  las_vegas: "America/Los_Angeles",
  san_diego: "America/Los_Angeles",
  munich: "Europe/Berlin",
  munchen: "Europe/Berlin",
  hamburg: "Europe/Berlin",
  frankfurt: "Europe/Berlin",
  cologne: "Europe/Berlin",
  milan: "Europe/Rome",
  barcelona: "Europe/Madrid",
  geneva: "Europe/Zurich",
  beijing: "Asia/Shanghai",
  shenzhen: "Asia/Shanghai",
  mumbai: "Asia/Kolkata",
  delhi: "Asia/Kolkata",
  new_delhi: "Asia/Kolkata",
  bangalore: "Asia/Kolkata",
  bengaluru: "Asia/Kolkata",
  osaka: "Asia/Tokyo",
  melbourne_australia: "Australia/Melbourne",
  rio: "America/Sao_Paulo",
  rio_de_janeiro: "America/Sao_Paulo",
};

const OFFSET = /^(?:utc|gmt)?\s*[+-]\s*\d{1,2}(?::?\d{2})?$/i;

/** "New York" -> "new_york", "São Paulo" -> "sao_paulo": a zone's city as typed. */
function cityKey(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[.,']/g, "")
    .trim()
    .replace(/[\s-]+/g, "_");
}

/**
 * The canonical zones a refused `timezone` probably meant: the same name in another letter
 * case, an abbreviation's usual zone ("EST" -> America/New_York, with why: an abbreviation
 * is a clock for part of the year, the zone follows the city through daylight saving), an
 * old link name (US/Eastern), or a city ("New York", "Munich"). Offsets get no suggestion,
 * only why. An empty name falls through every step to no suggestion.
 * @example adviseTimeZone("EST") // { suggestions: ["America/New_York"], why: "EST (Eastern Standard Time) is ..." }
 */
export function adviseTimeZone(name: string): TimeZoneAdvice {
  const typed = name.trim();
  const lower = typed.toLowerCase();
  const sameName = timeZoneNames.find((zone) => zone.toLowerCase() === lower);
  if (sameName !== undefined) return { suggestions: [sameName], why: null };
  const upper = typed.toUpperCase();
  const abbreviation = ABBREVIATIONS.get(upper);
  if (abbreviation !== undefined) {
    const [zones, meaning] = abbreviation;
    const city = zones[0]!.split("/").pop()!.replaceAll("_", " ");
    return {
      suggestions: [...zones],
      why:
        `${upper} (${meaning}) is an abbreviation, not a zone: it names a clock for part of the ` +
        `year. A zone follows a place through its daylight saving changes, as ${zones[0]} ` +
        `follows ${city}.`,
    };
  }
  if (OFFSET.test(typed)) {
    return {
      suggestions: [],
      why: "a UTC offset is not a zone: it does not follow daylight saving. Name the city whose clock the deadline is on (Europe/Berlin, America/New_York).",
    };
  }
  const key = cityKey(typed);
  const alias = Object.hasOwn(ALIASES, key) ? ALIASES[key] : undefined;
  if (alias !== undefined) return { suggestions: [alias], why: null };
  // A city as typed ("New York", "new-york", "Sao Paulo"), or a zone without its underscores.
  const bare = key.replaceAll("_", "");
  const byCity = timeZoneNames.filter(
    (zone) =>
      zone.toLowerCase().split("/").pop()!.replaceAll("_", "") === bare ||
      zone.toLowerCase().replaceAll("_", "") === bare,
  );
  // Else the start of a city ("Los Ang", "Buenos"), when it is long enough to mean something.
  const byPrefix = () =>
    key.length >= 4
      ? timeZoneNames.filter((zone) => cityKey(zone.split("/").pop()!).startsWith(key))
      : [];
  return { suggestions: (byCity.length > 0 ? byCity : byPrefix()).slice(0, 3), why: null };
}

/** "did you mean America/New_York? EST (Eastern Standard Time) is an abbreviation, ..." */
export function timeZoneAdviceText(advice: TimeZoneAdvice): string {
  const mean =
    advice.suggestions.length === 0 ? "" : `did you mean ${advice.suggestions.join(" or ")}?`;
  return [mean, advice.why ?? ""].filter(Boolean).join(" ");
}
