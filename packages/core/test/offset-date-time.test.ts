import {
  formatInstant,
  formatLocalDateTime,
  parseLocalDateTime,
  parseOffsetDateTime,
} from "@tminus/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const AT_10Z = Date.UTC(2026, 10, 22, 10, 0, 0); // 2026-11-22T10:00:00Z

describe("parseOffsetDateTime", () => {
  it.each([
    ["2026-11-22T10:00:00Z", AT_10Z],
    ["2026-11-22t10:00:00z", AT_10Z],
    ["2026-11-22T10:00Z", AT_10Z],
    ["2026-11-22T11:00:00+01:00", AT_10Z],
    ["2026-11-22T11:00:00+0100", AT_10Z],
    ["2026-11-22T11:00:00+01", AT_10Z],
    ["2026-11-22T15:30:00+05:30", AT_10Z],
    ["2026-11-22T04:15:00-05:45", AT_10Z],
    ["2026-11-22T10:00:00-00:00", AT_10Z],
    ["2026-11-22T10:00:00.5Z", AT_10Z + 500],
    ["2026-11-22T10:00:00.123Z", AT_10Z + 123],
    ["2026-11-22T10:00:00.123999999Z", AT_10Z + 123], // beyond ms: truncated, never rounded up
    ["2026-11-23T04:00:00+18:00", AT_10Z],
    ["2026-11-21T16:00:00-18:00", AT_10Z],
    ["2024-02-29T00:00:00Z", Date.UTC(2024, 1, 29)],
    ["2000-02-29T00:00:00Z", Date.UTC(2000, 1, 29)],
    ["1969-12-31T23:59:59.999Z", -1],
    ["0001-01-01T00:00:00Z", -62_135_596_800_000],
  ])("%s", (text, expected) => {
    expect(parseOffsetDateTime(text)).toBe(expected);
  });

  it.each([
    ["no offset", "2026-11-22T10:00:00"],
    ["no offset, with fraction", "2026-11-22T10:00:00.000"],
    ["date only", "2026-11-22"],
    ["space separator", "2026-11-22 10:00:00Z"],
    ["Feb 30", "2026-02-30T10:00:00Z"],
    ["Feb 29 in a common year", "2025-02-29T10:00:00Z"],
    ["Feb 29 in 1900", "1900-02-29T10:00:00Z"],
    ["month 13", "2026-13-01T10:00:00Z"],
    ["month 0", "2026-00-01T10:00:00Z"],
    ["day 0", "2026-01-00T10:00:00Z"],
    ["April 31", "2026-04-31T10:00:00Z"],
    ["hour 24", "2026-11-22T24:00:00Z"],
    ["minute 60", "2026-11-22T10:60:00Z"],
    ["leap second", "2016-12-31T23:59:60Z"],
    ["offset beyond +18:00", "2026-11-22T10:00:00+18:01"],
    ["offset beyond -18:00", "2026-11-22T10:00:00-19:00"],
    ["offset minutes 60", "2026-11-22T10:00:00+05:60"],
    ["ten fraction digits", "2026-11-22T10:00:00.1234567890Z"],
    ["empty fraction", "2026-11-22T10:00:00.Z"],
    ["one-digit hour", "2026-11-22T9:00:00Z"],
    ["five-digit year", "12026-11-22T10:00:00Z"],
    ["expanded year", "+002026-11-22T10:00:00Z"],
    ["trailing text", "2026-11-22T10:00:00Z "],
    ["named zone", "2026-11-22T10:00:00 Europe/Berlin"],
    ["three-digit offset", "2026-11-22T10:00:00+053"],
    ["UTC word", "2026-11-22T10:00:00UTC"],
    ["empty", ""],
  ])("rejects %s", (_, text) => {
    expect(parseOffsetDateTime(text)).toBeNull();
  });
});

// Random instants and offsets, written out in every accepted spelling.
// Years 0000..9999 once any offset is applied.
const MIN_MS = -62_167_219_200_000 + 18 * 3_600_000;
const MAX_MS = 253_402_300_799_999 - 18 * 3_600_000;

const spelled = fc
  .record({
    instant: fc.integer({ min: MIN_MS, max: MAX_MS }),
    offsetMinutes: fc.integer({ min: -18 * 60, max: 18 * 60 }),
    fractionDigits: fc.integer({ min: -1, max: 9 }), // -1: no seconds at all
    extraDigits: fc.stringMatching(/^[0-9]{6}$/),
    offsetStyle: fc.constantFrom("colon", "compact", "hours"),
    zulu: fc.constantFrom("Z", "z"),
    t: fc.constantFrom("T", "t"),
  })
  .map((g) => {
    // Spelled text can only carry the precision it writes, so round the instant to it.
    const step = g.fractionDigits < 0 ? 60_000 : 10 ** Math.max(0, 3 - g.fractionDigits);
    const instant = Math.floor(g.instant / step) * step;
    let offsetMinutes = g.offsetMinutes;
    if (g.offsetStyle === "hours") offsetMinutes -= offsetMinutes % 60;
    const local = new Date(instant + offsetMinutes * 60_000); // read with UTC getters only
    const p = (n: number, w = 2) => String(n).padStart(w, "0");
    let text = `${p(local.getUTCFullYear(), 4)}-${p(local.getUTCMonth() + 1)}-${p(local.getUTCDate())}`;
    text += `${g.t}${p(local.getUTCHours())}:${p(local.getUTCMinutes())}`;
    if (g.fractionDigits >= 0) text += `:${p(local.getUTCSeconds())}`;
    if (g.fractionDigits > 0) {
      const ms = p(local.getUTCMilliseconds(), 3) + g.extraDigits;
      text += `.${ms.slice(0, g.fractionDigits)}`;
    }
    const body = text;
    if (offsetMinutes === 0 && g.offsetStyle === "colon") text += g.zulu;
    else {
      const sign = offsetMinutes < 0 ? "-" : "+";
      const abs = Math.abs(offsetMinutes);
      const hh = p(Math.floor(abs / 60));
      const mm = p(abs % 60);
      text +=
        g.offsetStyle === "colon"
          ? `${sign}${hh}:${mm}`
          : g.offsetStyle === "compact"
            ? `${sign}${hh}${mm}`
            : `${sign}${hh}`;
    }
    return { text, body, instant };
  });

describe("parseOffsetDateTime properties", () => {
  it("round-trips every spelling of a random instant and offset to the same instant", () => {
    fc.assert(
      fc.property(spelled, ({ text, instant }) => {
        expect(parseOffsetDateTime(text)).toBe(instant);
      }),
      { numRuns: 2000 },
    );
  });

  it("rejects the same text without its offset", () => {
    fc.assert(
      fc.property(spelled, ({ body }) => {
        expect(parseOffsetDateTime(body)).toBeNull();
      }),
      { numRuns: 1000 },
    );
  });

  it("rejects any string that does not end in Z or a numeric offset", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        fc.pre(!/([Zz]|[+-]\d{2}(:?\d{2})?)$/.test(text));
        expect(parseOffsetDateTime(text)).toBeNull();
      }),
    );
  });

  it("agrees with Date.parse on RFC 3339 text with milliseconds", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: MAX_MS }),
        fc.integer({ min: -1080, max: 1080 }),
        (ms, off) => {
          const text = formatInstant(ms + off * 60_000).replace(
            "Z",
            `${off < 0 ? "-" : "+"}${String(Math.floor(Math.abs(off) / 60)).padStart(2, "0")}:${String(Math.abs(off) % 60).padStart(2, "0")}`,
          );
          expect(parseOffsetDateTime(text)).toBe(Date.parse(text));
          expect(parseOffsetDateTime(text)).toBe(ms);
        },
      ),
    );
  });
});

describe("parseOffsetDateTime, read again", () => {
  it("answers a text as it did the first time, however texts repeat and alternate", () => {
    const texts = [
      "2026-11-22T11:00:00+01:00",
      "2026-11-22T10:00:00Z",
      "2026-11-22T10:00:00.007Z",
      "2026-02-30T10:00:00Z",
      "2026-11-22T10:00:00",
      "",
    ];
    // Each answer alone, with another text read in between so none is remembered.
    const alone = texts.map((t) => {
      parseOffsetDateTime("1999-01-01T00:00:00Z");
      return parseOffsetDateTime(t);
    });
    expect(alone.slice(0, 3)).toEqual([AT_10Z, AT_10Z, AT_10Z + 7]);
    expect(alone.slice(3)).toEqual([null, null, null]);
    fc.assert(
      fc.property(fc.array(fc.nat({ max: texts.length - 1 }), { maxLength: 30 }), (seq) => {
        for (const i of seq) expect(parseOffsetDateTime(texts[i]!)).toBe(alone[i]);
      }),
    );
  });
});

describe("formatInstant", () => {
  it("writes UTC with milliseconds", () => {
    expect(formatInstant(AT_10Z)).toBe("2026-11-22T10:00:00.000Z");
    expect(formatInstant(AT_10Z + 7)).toBe("2026-11-22T10:00:00.007Z");
  });

  it("writes what toISOString writes, however instants repeat and alternate", () => {
    const instant = fc.constantFrom(0, -0, 1, AT_10Z, AT_10Z + 7, -62_167_219_200_000);
    fc.assert(
      fc.property(
        fc.array(fc.oneof(instant, fc.integer({ min: 0, max: 2 ** 41 })), { maxLength: 30 }),
        (seq) => {
          for (const ms of seq) expect(formatInstant(ms)).toBe(new Date(ms).toISOString());
        },
      ),
    );
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, 8.64e15 + 1]) {
      expect(() => formatInstant(bad)).toThrow(RangeError);
      expect(() => formatInstant(bad)).toThrow(RangeError);
    }
  });

  it("is parsed back to the same instant", () => {
    fc.assert(
      fc.property(fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 }), (ms) => {
        expect(parseOffsetDateTime(formatInstant(ms))).toBe(ms);
      }),
    );
  });
});

describe("parseLocalDateTime", () => {
  it("reads wall-clock values with or without seconds", () => {
    expect(parseLocalDateTime("2026-03-29T02:30")).toEqual({
      year: 2026,
      month: 3,
      day: 29,
      hour: 2,
      minute: 30,
      second: 0,
    });
    expect(parseLocalDateTime("2024-02-29T23:59:59")?.second).toBe(59);
  });

  it.each([
    "2026-03-29T02:30Z",
    "2026-03-29T02:30+01:00",
    "2026-03-29T02:30:00.000",
    "2026-02-29T10:00",
    "2026-03-29T24:00",
    "2026-03-29",
    "2026-03-29 02:30",
    "",
  ])("rejects %s", (text) => {
    expect(parseLocalDateTime(text)).toBeNull();
  });

  it("formats to the canonical form with seconds", () => {
    const value = parseLocalDateTime("0999-01-02T03:04")!;
    expect(formatLocalDateTime(value)).toBe("0999-01-02T03:04:00");
  });
});
