// The expansion's cycle: how many empty periods in a row a search may meet before it can
// tell that none will ever match. It must be a whole number of calendar cycles (400 years)
// of periods, or a search gives up too early; and no more than one such cycle, or a
// fruitless search scans for longer than the calendar takes to repeat.
import { describe, expect, test } from "vitest";
import { DAY_MS } from "../src/recurrence/_local";
import { expandRule } from "../src/recurrence/expand";
import { parseRRule, type RRule } from "../src/recurrence/rrule";
import type { LocalDateTime } from "../src/time/local-date-time";

const DAYS_400_YEARS = 146_097;
const MONTHS_400_YEARS = 4_800;
const dtstart: LocalDateTime = { year: 2024, month: 1, day: 31, hour: 9, minute: 0, second: 0 };
const rule = (text: string): RRule => {
  const parsed = parseRRule(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.rule;
};

describe("expandRule: cycle", () => {
  // Every INTERVAL the parser accepts; each check is arithmetic, so all of them are cheap.
  const intervals = Array.from({ length: 999 }, (_, i) => i + 1);

  test("DAILY: a whole number of 400-year cycles, and at most one cycle of periods", () => {
    for (const interval of intervals) {
      const { cycle } = expandRule(rule(`FREQ=DAILY;INTERVAL=${interval}`), dtstart);
      expect((cycle * interval) % DAYS_400_YEARS, `INTERVAL=${interval}`).toBe(0);
      expect(DAYS_400_YEARS % cycle, `INTERVAL=${interval}`).toBe(0);
    }
    // 146,097 = 3^3 * 7 * 773: an INTERVAL sharing a factor with it shortens the cycle.
    expect(expandRule(rule("FREQ=DAILY;INTERVAL=7"), dtstart).cycle).toBe(20_871);
    expect(expandRule(rule("FREQ=DAILY;INTERVAL=2"), dtstart).cycle).toBe(DAYS_400_YEARS);
  });

  test("MONTHLY: a whole number of 400-year cycles, and at most one cycle of periods", () => {
    for (const interval of intervals) {
      const { cycle } = expandRule(rule(`FREQ=MONTHLY;INTERVAL=${interval}`), dtstart);
      expect((cycle * interval) % MONTHS_400_YEARS, `INTERVAL=${interval}`).toBe(0);
      expect(MONTHS_400_YEARS % cycle, `INTERVAL=${interval}`).toBe(0);
    }
    expect(expandRule(rule("FREQ=MONTHLY;INTERVAL=12"), dtstart).cycle).toBe(400);
    expect(expandRule(rule("FREQ=MONTHLY;INTERVAL=7"), dtstart).cycle).toBe(MONTHS_400_YEARS);
  });

  test("WEEKLY: every period has candidates, so one period is the cycle", () => {
    expect(expandRule(rule("FREQ=WEEKLY;INTERVAL=3;BYDAY=MO,FR"), dtstart).cycle).toBe(1);
  });

  test.each([
    "FREQ=DAILY;INTERVAL=14;BYMONTHDAY=-1;BYDAY=SA",
    "FREQ=DAILY;INTERVAL=30;BYHOUR=6,18",
    "FREQ=MONTHLY;INTERVAL=10;BYMONTHDAY=29",
    "FREQ=MONTHLY;INTERVAL=12;BYDAY=-1FR,5TU",
  ])(
    "%s: the candidates of period p + cycle are those of p, one whole number of 400 years later",
    (text) => {
      const expansion = expandRule(rule(text), dtstart);
      const freq = text.includes("DAILY") ? "DAILY" : "MONTHLY";
      const interval = rule(text).interval;
      const unit = freq === "DAILY" ? DAYS_400_YEARS : MONTHS_400_YEARS;
      const shift = ((expansion.cycle * interval) / unit) * DAYS_400_YEARS * DAY_MS;
      for (const p of [0, 1, 5, 47, 1_000]) {
        const later = expansion.candidates(p + expansion.cycle);
        expect(
          later.map((t) => t - shift),
          `${text} p=${p}`,
        ).toEqual(expansion.candidates(p));
      }
    },
  );
});
