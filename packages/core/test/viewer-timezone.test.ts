// A viewer's zone for a wall-clock deadline (`allow_viewer_timezone`): applied only where the
// owner allows it and there is a wall time to move, only for canonical zones; and the deadline
// it gives is that wall time in the viewer's zone, checked against luxon over every zone.
import fc from "fast-check";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import {
  computeStatus,
  emptyClock,
  followsViewerTimezone,
  inViewerTimezone,
  type TimerDefinition,
  timeZoneNames,
  validateTimerCreate,
} from "../src/index";

const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : 20_261_127;

function created(body: Record<string, unknown>): TimerDefinition {
  const result = validateTimerCreate({ name: "Sale", ...body });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value;
}

const wall = (allow: boolean, local = "2030-03-11T00:00") =>
  created({
    type: "fixed",
    deadline_local: local,
    timezone: "Europe/London",
    allow_viewer_timezone: allow,
  });

describe("inViewerTimezone", () => {
  it("applies to allowed wall-clock deadlines and rules only", () => {
    expect(followsViewerTimezone(wall(true))).toBe(true);
    expect(followsViewerTimezone(wall(false))).toBe(false);
    const instant = created({
      type: "fixed",
      deadline_at: "2030-03-11T00:00:00Z",
      allow_viewer_timezone: true,
    });
    expect(inViewerTimezone(instant, "Asia/Tokyo")).toEqual({
      definition: instant,
      applied: false,
      reason: "not_allowed",
    });
    const recurring = created({
      type: "recurring",
      timezone: "Europe/London",
      recurrence: { rrule: "FREQ=DAILY;BYHOUR=0;BYMINUTE=0", dtstart: "2030-03-01T00:00" },
      allow_viewer_timezone: true,
    });
    expect(inViewerTimezone(recurring, "Asia/Tokyo").definition.timezone).toBe("Asia/Tokyo");
    const ownZone = { ...recurring, allow_viewer_timezone: false };
    expect(inViewerTimezone(ownZone, "Asia/Tokyo")).toEqual({
      definition: ownZone,
      applied: false,
      reason: "not_allowed",
    });
    const duration = created({ type: "duration", duration_seconds: 60 });
    expect(inViewerTimezone(duration, "Asia/Tokyo").applied).toBe(false);
    // A boolean, not merely something falsy: the answer is exported as is.
    expect(followsViewerTimezone(duration)).toBe(false);
  });

  it("refuses what is not a canonical zone, and leaves the definition as it was", () => {
    const definition = wall(true);
    for (const zone of ["", "america/new_york", "US/Eastern", "EST", "+05:00", "Mars/Olympus"]) {
      expect(inViewerTimezone(definition, zone), zone).toEqual({
        definition,
        applied: false,
        reason: "invalid",
      });
    }
    expect(definition.timezone).toBe("Europe/London");
  });

  it("counts to the wall time in the viewer's zone, in every zone (luxon as the oracle)", () => {
    const local = fc
      .date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2037-12-31T00:00:00Z") })
      .filter((d) => !Number.isNaN(d.getTime()))
      .map((d) => d.toISOString().slice(0, 16));
    fc.assert(
      fc.property(local, fc.constantFrom(...timeZoneNames), (wallTime, zone) => {
        const expected = DateTime.fromISO(wallTime, { zone });
        // Times that a clock change skips or repeats have their own rules (fixed-local.test.ts).
        fc.pre(expected.toFormat("yyyy-MM-dd'T'HH:mm") === wallTime);
        fc.pre(+expected.minus({ hours: 3 }).plus({ hours: 3 }) === +expected);
        const { definition, applied } = inViewerTimezone(wall(true, wallTime), zone);
        expect(applied).toBe(true);
        const now = Date.UTC(1999, 0, 1);
        const status = computeStatus(
          { definition, clock: { ...emptyClock(), published_at: now } },
          now,
        );
        expect(status.target_at).toBe(expected.toMillis());
      }),
      { seed, numRuns: 500 },
    );
  });
});
