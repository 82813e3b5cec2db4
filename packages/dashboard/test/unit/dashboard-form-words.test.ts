// The builder's problems in the form's words, its hex colours, and the list's time left.
import { timeZoneNames } from "@tminus/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { endedWarnings, formErrors, formProblemOf } from "../../src/form-problems";
import { isHexColour, normalizeHex } from "../../src/hex-colour";
import { timeLeft } from "../../src/pages/timer-list";
import { defaultFormValues, readTimerForm, timerBodyOf } from "../../src/timer-form";
import { zoneAbbreviation, zoneTime } from "../../src/zone-time";

const NOW = Date.parse("2026-11-26T19:30:00Z");
const hexDigit = fc.constantFrom(..."0123456789abcdefABCDEF");

describe("hex colours", () => {
  it("reads any six or three hex digits, with or without #, in any case, as #rrggbb", () => {
    fc.assert(
      fc.property(
        fc.array(hexDigit, { minLength: 6, maxLength: 6 }),
        fc.boolean(),
        (digits, hash) => {
          const typed = `${hash ? "#" : ""}${digits.join("")}`;
          expect(isHexColour(typed)).toBe(true);
          expect(normalizeHex(typed)).toBe(`#${digits.join("").toLowerCase()}`);
        },
      ),
    );
    fc.assert(
      fc.property(fc.array(hexDigit, { minLength: 3, maxLength: 3 }), (d) => {
        const full = d.map((c) => c + c).join("");
        expect(normalizeHex(`#${d.join("")}`)).toBe(`#${full.toLowerCase()}`);
      }),
    );
  });

  it("leaves anything else as typed, for the form to refuse", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 9 }), (text) => {
        fc.pre(!/^\s*#?([0-9a-f]{3}|[0-9a-f]{6})\s*$/i.test(text));
        expect(isHexColour(text)).toBe(false);
        expect(normalizeHex(text)).toBe(text.trim());
      }),
    );
    const v = { ...defaultFormValues(NOW), name: "Sale", background_color: "navy" };
    expect(formErrors(v)).toEqual([
      expect.objectContaining({ id: "background_color", label: "Background" }),
    ]);
  });
});

describe("problems in the form's words", () => {
  it("names the API's fields by the builder's labels, never by the API's names", () => {
    const cases: [string, string, string][] = [
      ["deadline_at", "deadline_local", "Ends at"],
      ["duration_seconds", "duration_days", "Days"],
      ["not_after", "not_after_local", "Never past"],
      ["recurrence.rrule", "freq", "Repeats"],
      ["recurrence.dtstart", "starts_on", "Starting"],
      ["personalization.offset_seconds", "offset_hours", "Hours from the start"],
      ["look.background_color", "background_color", "Background"],
      ["look.font_size", "font_size", "Digit size"],
      ["look.labels.days", "label_days", "Own word for days"],
      ["look.units[2]", "units", "Units shown"],
      ["ended.image_url", "ended_image_url", "Image instead"],
    ];
    for (const [field, id, label] of cases) {
      const problem = formProblemOf(field, `${field} must be something`);
      expect(problem).toEqual({ id, label, message: "must be something" });
    }
    expect(formProblemOf("metadata.x", "metadata.x is too long")).toBeNull();
  });

  it("refuses a blank name and warns of a past deadline, a rule that has ended", () => {
    const v = defaultFormValues(NOW, "Europe/Berlin");
    expect(formErrors(v).map((p) => p.id)).toEqual(["name"]);
    expect(endedWarnings({ ...v, name: "x" }, NOW)).toEqual([]);
    const past = endedWarnings({ ...v, deadline_local: "2026-11-20T18:00" }, NOW);
    expect(past).toEqual([
      {
        id: "deadline_local",
        label: "Ends at",
        message:
          "Fri 20 Nov, 18:00 Berlin time (17:00 UTC) is in the past: the timer would show its ended look from the start.",
        warning: true,
      },
    ]);
    const rule = { ...v, type: "recurring", starts_on: "2026-11-01", rule_end: "until" };
    expect(endedWarnings({ ...rule, until: "2026-11-15" }, NOW).map((p) => p.id)).toEqual([
      "until",
    ]);
    expect(endedWarnings({ ...rule, until: "2026-12-15" }, NOW)).toEqual([]);
  });
});

describe("the builder's new fields and limits, in the form's words", () => {
  const v = { ...defaultFormValues(NOW, "Europe/Berlin"), name: "Sale" };

  it("refuses a name or ended text over the limit, saying by how much, never cutting it", () => {
    const long = "W".repeat(215);
    expect(formErrors({ ...v, name: long })).toEqual([
      {
        id: "name",
        label: "Name",
        message: "it has 215 characters; a name has at most 200. Shorten it.",
      },
    ]);
    expect(formErrors({ ...v, name: "W".repeat(200) })).toEqual([]);
    expect(formErrors({ ...v, ended_text: long }).map((p) => p.id)).toEqual(["ended_text"]);
    // The form reads the whole name: nothing is cut on the way.
    expect(readTimerForm(new URLSearchParams({ name: long }), NOW).name).toBe(long);
  });

  it("suggests the canonical zone for a city or an abbreviation, saying why EST is none", () => {
    expect(formErrors({ ...v, timezone: "New York" })).toEqual([
      {
        id: "timezone",
        label: "Time zone",
        message: "“New York” is not a time zone name from the list. Did you mean America/New_York?",
      },
    ]);
    const [est] = formErrors({ ...v, timezone: "EST" });
    expect(est?.message).toBe(
      "“EST” is not a time zone name from the list. Did you mean America/New_York? EST (Eastern Standard Time) is an abbreviation, not a zone: it names a clock for part of the year. A zone follows a place through its daylight saving changes, as America/New_York follows New York.",
    );
    expect(formErrors({ ...v, timezone: "Atlantis" })[0]?.message).toContain(
      "Type a city, like Europe/Berlin or America/New_York.",
    );
  });

  it("words the API's limits in the form's units and labels", () => {
    expect(formProblemOf("duration_seconds", "duration_seconds must be at most 31622400")).toEqual({
      id: "duration_days",
      label: "Days",
      message: "the length must be at most 366 days",
    });
    expect(
      formProblemOf(
        "personalization.offset_seconds",
        'personalization.offset_seconds is required when personalization.source is "start"',
      )?.message,
    ).toBe("is required when links carry a start");
    expect(
      formProblemOf(
        "look.click_url",
        "look.click_url must be an absolute https:// URL without user name or password",
      ),
    ).toEqual({
      id: "click_url",
      label: "While it runs",
      message: "must be a full https:// address",
    });
  });

  it("accepts hours over 23, and sends the links, the fallback and the start on a human open", () => {
    const evergreen = timerBodyOf({
      ...v,
      type: "duration",
      duration_days: "0",
      duration_hours: "48",
      start_on_human: true,
      click_url: "https://shop.example/sale",
      ended_click_url: "https://shop.example/missed",
    });
    expect(evergreen).toMatchObject({
      duration_seconds: 48 * 3600,
      start_on: "first_human_open",
      look: { click_url: "https://shop.example/sale" },
      ended: { click_url: "https://shop.example/missed" },
    });
    // Only a personalized timer's links can start later: the others keep what is stored.
    expect(evergreen.look).not.toHaveProperty("not_started_click_url");
    const personal = { ...v, type: "personalized", fallback_local: "2026-12-24T18:00" };
    expect(timerBodyOf(personal)).toMatchObject({
      personalization: { fallback_deadline_at: "2026-12-24T17:00:00.000Z" },
    });
    // Left empty: a warning that says what test sends show.
    expect(endedWarnings({ ...personal, fallback_local: "" }, NOW)).toEqual([
      expect.objectContaining({ id: "fallback_local", warning: true }),
    ]);
    expect(endedWarnings({ ...personal, fallback_local: "" }, NOW)[0]?.message).toContain(
      "test sends",
    );
    expect(endedWarnings(personal, NOW)).toEqual([]);
  });
});

describe("times in the timer's zone", () => {
  it("gives every zone a name and UTC on hover", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...timeZoneNames),
        fc.integer({ min: Date.parse("2000-01-01"), max: Date.parse("2037-12-31") }),
        (zone, ms) => {
          const name = zoneAbbreviation(ms, zone);
          expect(name).toMatch(/^([A-Z]{2,5}|GMT([+-]\d{1,2}(:\d{2})?)?|UTC)$/);
          const shown = zoneTime(ms, zone).value;
          expect(shown).toContain(
            `title="${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC"`,
          );
          expect(shown).toContain(`${name}</time>`);
        },
      ),
    );
  });
});

describe("time left", () => {
  it("says the two largest units, never more than there is", () => {
    fc.assert(
      fc.property(fc.integer({ min: 60, max: 400 * 86_400 }), (seconds) => {
        const text = timeLeft(seconds);
        const parts = [...text.matchAll(/(\d+) (d|h|min)/g)].map(
          ([, n, unit]) => Number(n) * { d: 86_400, h: 3600, min: 60 }[unit as "d" | "h" | "min"],
        );
        const said = parts.reduce((a, b) => a + b, 0);
        expect(parts.length).toBeGreaterThan(0);
        expect(parts.length).toBeLessThanOrEqual(2);
        expect(said).toBeLessThanOrEqual(seconds);
        // What is left unsaid is less than the smaller unit said.
        expect(seconds - said).toBeLessThan(seconds >= 86_400 ? 3600 : 60);
      }),
    );
    expect(timeLeft(20.5 * 3600)).toBe("20 h 30 min");
    expect(timeLeft(30)).toBe("under a minute");
  });
});
