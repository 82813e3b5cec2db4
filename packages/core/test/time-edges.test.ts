// Calendar and offset edges of the time module: impossible dates and times, the last
// minute an offset may have, November's length, and DST seen at the far end of a year.
import { describe, expect, it } from "vitest";
import { describeTimeZone, parseLocalDateTime, parseOffsetDateTime } from "../src/index";
import { daysInMonth } from "../src/time/_calendar";

describe("parseLocalDateTime refuses impossible dates and times", () => {
  it.each([
    "2026-00-10T09:00",
    "2026-13-10T09:00",
    "2026-01-00T09:00",
    "2026-01-32T09:00",
    "2026-11-31T09:00",
    "2026-02-29T09:00",
    "2026-01-10T24:00",
    "2026-01-10T09:60",
    "2026-01-10T09:00:60",
  ])("%s", (text) => {
    expect(parseLocalDateTime(text)).toBeNull();
  });

  it("accepts the last of each", () => {
    expect(parseLocalDateTime("2028-02-29T23:59:59")).toEqual({
      year: 2028,
      month: 2,
      day: 29,
      hour: 23,
      minute: 59,
      second: 59,
    });
    expect(parseLocalDateTime("2026-12-31T00:00")).not.toBeNull();
  });
});

describe("month lengths", () => {
  it("30 days hath September, April, June and November", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((m) => daysInMonth(2026, m))).toEqual([
      31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
    ]);
  });
});

describe("parseOffsetDateTime", () => {
  it("accepts offsets up to :59 minutes, either sign", () => {
    expect(parseOffsetDateTime("2026-01-01T00:00:00+05:59")).toBe(Date.UTC(2025, 11, 31, 18, 1));
    expect(parseOffsetDateTime("2026-01-01T00:00:00-05:59")).toBe(Date.UTC(2026, 0, 1, 5, 59));
    expect(parseOffsetDateTime("2026-01-01T00:00:00+05:60")).toBeNull();
  });
});

describe("describeTimeZone", () => {
  it("counts an offset change on the last day of the 12 months ahead, not the year behind", () => {
    // Pyongyang moved from +08:30 back to +09:00 on 2018-05-04 at 15:00 UTC, after almost
    // three years without a change: 365 days after this instant.
    const change = Date.UTC(2018, 4, 4, 15);
    const before = change - 365 * 86_400_000;
    expect(describeTimeZone("Asia/Pyongyang", before)).toMatchObject({
      utc_offset: "+08:30",
      observes_dst: true,
    });
    expect(describeTimeZone("Asia/Pyongyang", change - 367 * 86_400_000).observes_dst).toBe(false);
  });

  it("refuses a name that is not a canonical zone, by name", () => {
    expect(() => describeTimeZone("Mars/Olympus_Mons", 0)).toThrow(
      "not a canonical time zone: Mars/Olympus_Mons",
    );
  });
});
