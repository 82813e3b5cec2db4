// The dashboard's flash (one-time panels after a form post) and its times in a timer's zone.

import type { ApiRequest } from "@tminus/http";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { flashOf } from "../../src/flash";
import { todayIn } from "../../src/timer-form";
import { inZone, zoneAbbreviation, zoneCity } from "../../src/zone-time";

const SCOPE = { path: "/dashboard", secure: false };
const NOW = Date.parse("2026-11-26T19:30:00Z");

/** A request that carries the cookie a `Set-Cookie` value sets. */
function requestWith(setCookie: string | null): ApiRequest {
  const pair = setCookie?.split(";")[0] ?? "";
  return {
    method: "GET",
    path: "/dashboard/production/keys",
    query: new URLSearchParams(),
    header: (name) => (name === "cookie" && pair ? pair : null),
    text: async () => "",
    origin: "http://127.0.0.1",
    mountPrefix: "",
  };
}

const session = fc.string({ minLength: 1, maxLength: 60 });
const panel = fc.dictionary(fc.string({ maxLength: 12 }), fc.string({ maxLength: 80 }));

describe("flash", () => {
  it("opens what it sealed, with the same session, before it expires", () => {
    fc.assert(
      fc.property(session, panel, fc.integer({ min: 0, max: 59_999 }), (cookie, value, later) => {
        const sealed = flashOf(requestWith(null), cookie, SCOPE, NOW).seal(value);
        expect(sealed).toMatch(
          /^tminus_flash=[A-Za-z0-9_-]+; Path=\/dashboard; Max-Age=60; HttpOnly/,
        );
        expect(flashOf(requestWith(sealed), cookie, SCOPE, NOW + later).read()).toEqual(value);
      }),
    );
  });

  it("opens nothing for another session, after a minute, or when tampered with", () => {
    fc.assert(
      fc.property(session, session, panel, fc.nat(), (mine, theirs, value, at) => {
        fc.pre(mine !== theirs);
        const sealed = flashOf(requestWith(null), mine, SCOPE, NOW).seal(value);
        expect(flashOf(requestWith(sealed), theirs, SCOPE, NOW).read()).toBeNull();
        expect(flashOf(requestWith(sealed), mine, SCOPE, NOW + 60_000).read()).toBeNull();
        const token = sealed.split(";")[0]!.split("=")[1]!;
        const bytes = Buffer.from(token, "base64url");
        const i = at % bytes.length;
        bytes[i] = bytes[i]! ^ 1;
        const edited = `tminus_flash=${bytes.toString("base64url")}`;
        expect(flashOf(requestWith(edited), mine, SCOPE, NOW).read()).toBeNull();
      }),
    );
  });

  it("clears with an expired cookie on the dashboard's path", () => {
    expect(flashOf(requestWith(null), "x", SCOPE, NOW).clear).toMatch(
      /^tminus_flash=; Path=\/dashboard; Max-Age=0; HttpOnly/,
    );
  });
});

describe("times in the timer's zone", () => {
  const zones = fc.constantFrom(
    "Europe/Berlin",
    "America/New_York",
    "Asia/Kolkata",
    "Australia/Lord_Howe",
    "Pacific/Chatham",
    "Etc/UTC",
  );
  const instant = fc.integer({ min: Date.parse("2000-01-01"), max: Date.parse("2060-01-01") });

  it("says the wall time and day as Intl does, and today's date there", () => {
    fc.assert(
      fc.property(zones, instant, (zone, ms) => {
        const parts = Object.fromEntries(
          new Intl.DateTimeFormat("en-GB", {
            timeZone: zone,
            weekday: "short",
            day: "numeric",
            month: "short",
            hour: "2-digit",
            minute: "2-digit",
            hourCycle: "h23",
          })
            .formatToParts(ms)
            .map((p) => [p.type, p.value]),
        );
        const text = inZone(ms, zone);
        // ICU says "Sept" in en-GB; the dashboard says "Sep".
        const month = parts.month!.slice(0, 3);
        expect(text.startsWith(`${parts.weekday} ${parts.day} ${month}, `), text).toBe(true);
        expect(text).toContain(`${parts.hour}:${parts.minute} ${zoneCity(zone)}`);
        const date = new Intl.DateTimeFormat("en-CA", { timeZone: zone }).format(ms);
        expect(todayIn(zone, ms)).toBe(date);
        // The UTC time names its day when that is not the wall time's day.
        const utcDay = new Date(ms).toISOString().slice(0, 10);
        const sameDay = utcDay === date;
        if (zoneCity(zone) !== "UTC")
          expect(
            /\((\w{3} \d{1,2} \w{3} )?\d\d:\d\d UTC\)$/.exec(text)?.[1] === undefined,
            text,
          ).toBe(sameDay);
      }),
    );
  });

  it("names the example of the issue", () => {
    expect(inZone(Date.parse("2026-11-27T16:00:00Z"), "Europe/Berlin")).toBe(
      "Fri 27 Nov, 17:00 Berlin time (16:00 UTC)",
    );
    // The issue's own example of the preview's words.
    expect(inZone(Date.parse("2026-12-04T22:59:00Z"), "Europe/Berlin")).toBe(
      "Fri 4 Dec, 23:59 Berlin time (22:59 UTC)",
    );
    // New York's 23:59 on Friday is Saturday in UTC: said so.
    expect(inZone(Date.parse("2026-12-05T04:59:00Z"), "America/New_York")).toBe(
      "Fri 4 Dec, 23:59 New York time (Sat 5 Dec 04:59 UTC)",
    );
    expect(zoneAbbreviation(Date.parse("2026-12-04T22:59:00Z"), "Europe/Berlin")).toBe("CET");
    expect(zoneAbbreviation(Date.parse("2026-07-04T12:00:00Z"), "America/New_York")).toBe("EDT");
    expect(zoneAbbreviation(Date.parse("2026-07-04T12:00:00Z"), "Asia/Tokyo")).toBe("GMT+9");
    expect(zoneCity("America/New_York")).toBe("New York");
    expect(todayIn("Not/AZone", NOW)).toBe("2026-11-26");
  });
});
