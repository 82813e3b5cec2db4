import {
  clockIssue,
  computeStatus,
  emptyClock,
  remainingParts,
  statusFromTarget,
  type TimerClock,
  type TimerDefinition,
} from "@tminus/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { define } from "./_define";

const DEADLINE = Date.UTC(2026, 10, 27, 8, 0, 0);
const fixed = define({ type: "fixed", name: "Launch", deadline_at: "2026-11-27T09:00:00+01:00" });
const duration = define({ type: "duration", name: "Offer", duration_seconds: 3600 });
const clock = (over: Partial<TimerClock> = {}): TimerClock => ({ ...emptyClock(), ...over });

describe("fixed timers", () => {
  it("counts down to the deadline", () => {
    expect(computeStatus({ definition: fixed, clock: clock() }, DEADLINE - 93_784_000)).toEqual({
      remaining: { total_seconds: 93_784, days: 1, hours: 2, minutes: 3, seconds: 4 },
      ended: false,
      state: "running",
      target_at: DEADLINE,
    });
  });

  it("has ended at the deadline instant itself", () => {
    const status = computeStatus({ definition: fixed, clock: clock() }, DEADLINE);
    expect(status).toMatchObject({ ended: true, state: "ended", remaining: { total_seconds: 0 } });
  });

  it("shows 1 second, not ended, 1 ms before the deadline", () => {
    const status = computeStatus({ definition: fixed, clock: clock() }, DEADLINE - 1);
    expect(status).toMatchObject({
      ended: false,
      state: "running",
      remaining: { total_seconds: 1 },
    });
  });

  it("stays at zero long after the end", () => {
    const status = computeStatus({ definition: fixed, clock: clock() }, DEADLINE + 86_400_000);
    expect(status.remaining).toEqual({
      total_seconds: 0,
      days: 0,
      hours: 0,
      minutes: 0,
      seconds: 0,
    });
  });

  it("freezes while paused and reports where the target has moved to", () => {
    const pausedAt = DEADLINE - 600_000;
    const paused = clock({ paused_at: pausedAt });
    for (const now of [pausedAt, pausedAt + 60_000, DEADLINE + 3_600_000]) {
      const status = computeStatus({ definition: fixed, clock: paused }, now);
      expect(status).toMatchObject({
        state: "paused",
        ended: false,
        remaining: { total_seconds: 600 },
      });
      expect(status.target_at).toBe(now + 600_000);
    }
  });

  it("moves the target by finished pauses and extensions", () => {
    const moved = clock({ paused_ms: 30_000, extended_seconds: 90 });
    const status = computeStatus({ definition: fixed, clock: moved }, DEADLINE);
    expect(status).toMatchObject({ state: "running", remaining: { total_seconds: 120 } });
    expect(status.target_at).toBe(DEADLINE + 120_000);
  });

  it("is ended, not paused, when paused after the end", () => {
    const status = computeStatus(
      { definition: fixed, clock: clock({ paused_at: DEADLINE + 5 }) },
      DEADLINE + 10,
    );
    expect(status).toMatchObject({ state: "ended", ended: true, target_at: DEADLINE });
  });
});

describe("duration timers", () => {
  const published = DEADLINE;

  it("has not started before publication: full duration, no target", () => {
    expect(computeStatus({ definition: duration, clock: clock() }, published)).toEqual({
      remaining: { total_seconds: 3600, days: 0, hours: 1, minutes: 0, seconds: 0 },
      ended: false,
      state: "not_started",
      target_at: null,
    });
  });

  it("counts from publication", () => {
    const status = computeStatus(
      { definition: duration, clock: clock({ published_at: published }) },
      published + 600_000,
    );
    expect(status).toMatchObject({ state: "running", remaining: { total_seconds: 3000 } });
    expect(status.target_at).toBe(published + 3_600_000);
  });

  it("counts from the viewer's own start first, then a reset start", () => {
    const viewerStart = published + 86_400_000;
    const c = clock({ published_at: published, started_at: published + 1000 });
    expect(
      computeStatus(
        { definition: duration, clock: c, viewer: { start_at: viewerStart } },
        viewerStart,
      ).target_at,
    ).toBe(viewerStart + 3_600_000);
    expect(computeStatus({ definition: duration, clock: c }, published).target_at).toBe(
      published + 1000 + 3_600_000,
    );
    // A viewer start counts even on a never-published draft (a preview).
    expect(
      computeStatus(
        { definition: duration, clock: clock(), viewer: { start_at: published } },
        published,
      ).state,
    ).toBe("running");
  });

  it("is capped at not_after", () => {
    const capped = define({
      type: "duration",
      name: "Offer",
      duration_seconds: 3600,
      not_after: "2026-11-27T08:30:00Z",
    });
    const c = clock({ published_at: published });
    const status = computeStatus({ definition: capped, clock: c }, published);
    expect(status).toMatchObject({
      target_at: published + 1_800_000,
      remaining: { total_seconds: 1800 },
    });
    expect(computeStatus({ definition: capped, clock: c }, published + 1_800_000).ended).toBe(true);
  });
});

describe("extensions", () => {
  const second = define({ type: "duration", name: "Blink", duration_seconds: 1 });

  it("lengthens a timer that has not started: the full duration plus the extension", () => {
    const status = computeStatus(
      { definition: duration, clock: clock({ extended_seconds: 90 }) },
      DEADLINE,
    );
    expect(status).toEqual({
      remaining: { total_seconds: 3690, days: 0, hours: 1, minutes: 1, seconds: 30 },
      ended: false,
      state: "not_started",
      target_at: null,
    });
  });

  it("carries an extension made before publication into the running countdown", () => {
    const c = clock({ extended_seconds: 90, published_at: DEADLINE });
    const status = computeStatus({ definition: duration, clock: c }, DEADLINE);
    expect(status).toMatchObject({ state: "running", remaining: { total_seconds: 3690 } });
    expect(status.target_at).toBe(DEADLINE + 3_690_000);
  });

  it("moves the target later, never earlier: a positive sum adds, a negative one is rejected", () => {
    const at = (extended_seconds: number) =>
      computeStatus({ definition: fixed, clock: clock({ extended_seconds }) }, DEADLINE - 1000)
        .target_at;
    expect(at(1)).toBe(DEADLINE + 1000);
    expect(at(0)).toBe(DEADLINE);
    // The 1-second timer, not started, shrunk by 1 s would show 0 s left yet not ended.
    expect(() =>
      computeStatus({ definition: second, clock: clock({ extended_seconds: -1 }) }, DEADLINE),
    ).toThrow("invalid timer clock: extended_seconds must be an integer >= 0");
    expect(() => at(-1)).toThrow(RangeError);
    expect(() => at(0.5)).toThrow("extended_seconds must be an integer >= 0");
  });

  it("refuses a definition whose instants do not parse (corrupt data, never a validated one)", () => {
    const badFixed = { ...fixed, deadline_at: "tomorrow" } as TimerDefinition;
    expect(() => computeStatus({ definition: badFixed, clock: clock() }, DEADLINE)).toThrow(
      "invalid deadline_at: tomorrow",
    );
    const badCap = { ...duration, not_after: "later" } as TimerDefinition;
    expect(() =>
      computeStatus({ definition: badCap, clock: clock({ published_at: DEADLINE }) }, DEADLINE),
    ).toThrow("invalid not_after: later");
    const badLocal = {
      ...fixed,
      deadline_at: undefined,
      deadline_local: "someday",
      timezone: "Europe/Berlin",
    } as unknown as TimerDefinition;
    expect(() => computeStatus({ definition: badLocal, clock: clock() }, DEADLINE)).toThrow(
      new RangeError("invalid deadline_local: someday"),
    );
  });

  it("rejects a negative pause and an instant that is not finite", () => {
    expect(() =>
      computeStatus({ definition: fixed, clock: clock({ paused_ms: -1 }) }, DEADLINE),
    ).toThrow("invalid timer clock: paused_ms must be a finite number >= 0");
    expect(() => computeStatus({ definition: fixed, clock: clock() }, Number.NaN)).toThrow(
      "invalid timer clock: now must be a finite instant",
    );
    expect(() =>
      computeStatus({ definition: fixed, clock: clock({ published_at: Number.NaN }) }, DEADLINE),
    ).toThrow("published_at must be null or a finite instant");
    expect(() => statusFromTarget(Number.NaN, clock(), DEADLINE)).toThrow("invalid target");
    expect(clockIssue(clock({ paused_ms: 0.5, extended_seconds: 0 }), 0)).toBeNull();
  });
});

describe("dispatch to the other timer types", () => {
  it("hands recurring and personalized timers to their own modules", () => {
    // Only checks the wiring; those modules have their own tests.
    const personalized = define({
      type: "personalized",
      name: "Trial",
      personalization: { source: "deadline", fallback_deadline_at: "2026-11-27T08:00:00Z" },
    });
    try {
      const status = computeStatus(
        {
          definition: personalized,
          clock: clock({ published_at: 0 }),
          viewer: { deadline_at: DEADLINE },
        },
        DEADLINE - 1000,
      );
      expect(status.remaining.total_seconds).toBeGreaterThanOrEqual(0);
    } catch (error) {
      expect(String(error)).toContain("not implemented yet");
    }
  });
});

describe("remainingParts", () => {
  it("splits seconds and lets the largest unit accumulate", () => {
    expect(remainingParts(93_784)).toEqual({
      total_seconds: 93_784,
      days: 1,
      hours: 2,
      minutes: 3,
      seconds: 4,
    });
    expect(remainingParts(93_784, "hours")).toMatchObject({
      days: 0,
      hours: 26,
      minutes: 3,
      seconds: 4,
    });
    expect(remainingParts(93_784, "minutes")).toMatchObject({
      hours: 0,
      minutes: 1563,
      seconds: 4,
    });
    expect(remainingParts(-5)).toEqual({
      total_seconds: 0,
      days: 0,
      hours: 0,
      minutes: 0,
      seconds: 0,
    });
  });
});

// Random timers of all four types with random valid clocks, viewers and instants.
const instant = fc.integer({ min: 0, max: 4_102_444_800_000 }); // 1970..2100
const iso = (ms: number) => new Date(ms).toISOString();
const anyClock = fc.record({
  published_at: fc.option(instant),
  paused_at: fc.option(instant),
  paused_ms: fc.integer({ min: 0, max: 30 * 86_400_000 }),
  // Extensions only add (1..31,622,400 s each), so the sum is an integer >= 0.
  extended_seconds: fc.integer({ min: 0, max: 86_400 * 30 }),
  started_at: fc.option(instant),
});
// Fixed and duration timers: their target never moves while they run.
const steadyDefinition = fc.oneof(
  instant.map((ms) => define({ type: "fixed", name: "t", deadline_at: iso(ms) })),
  fc
    .record({ seconds: fc.integer({ min: 1, max: 31_622_400 }), cap: fc.option(instant) })
    .map(({ seconds, cap }) =>
      define({
        type: "duration",
        name: "t",
        duration_seconds: seconds,
        ...(cap === null ? {} : { not_after: iso(cap) }),
      }),
    ),
);
const anyDefinition = fc.oneof(
  steadyDefinition,
  fc
    .record({
      source: fc.constantFrom("deadline", "start"),
      offset: fc.integer({ min: 1, max: 86_400 * 30 }),
      max: fc.integer({ min: 60, max: 86_400 * 60 }),
      fallback: fc.option(instant),
    })
    .map(({ source, offset, max, fallback }) =>
      define({
        type: "personalized",
        name: "t",
        personalization: {
          source,
          ...(source === "start" ? { offset_seconds: offset } : {}),
          max_seconds: max,
          fallback_deadline_at: fallback === null ? null : iso(fallback),
        },
      }),
    ),
  fc
    .record({
      rrule: fc.constantFrom("FREQ=DAILY", "FREQ=WEEKLY;BYDAY=MO,FR", "FREQ=DAILY;COUNT=3"),
      hold: fc.integer({ min: 0, max: 7200 }),
    })
    .map(({ rrule, hold }) =>
      define({
        type: "recurring",
        name: "t",
        timezone: "Europe/Berlin",
        recurrence: { rrule, dtstart: "2026-03-01T09:00", ended_hold_seconds: hold },
      }),
    ),
);
const anyViewer = fc.option(
  fc.record({ start_at: instant, deadline_at: instant }, { requiredKeys: [] }),
  { nil: undefined },
);

describe("status properties", () => {
  it("is consistent for every input it accepts: total_seconds 0 <=> ended <=> state ended", () => {
    fc.assert(
      fc.property(anyDefinition, anyClock, anyViewer, instant, (definition, c, viewer, now) => {
        const status = computeStatus({ definition, clock: c, viewer }, now);
        const { total_seconds, days, hours, minutes, seconds } = status.remaining;
        for (const n of [total_seconds, days, hours, minutes, seconds]) {
          expect(Number.isInteger(n) && n >= 0).toBe(true);
        }
        expect(days * 86_400 + hours * 3600 + minutes * 60 + seconds).toBe(total_seconds);
        expect(total_seconds === 0).toBe(status.ended);
        expect(status.ended).toBe(status.state === "ended");
        // A target is an instant, and a running countdown's total is its ceiling.
        if (status.target_at !== null) expect(Number.isFinite(status.target_at)).toBe(true);
        if (status.state === "running") {
          expect(total_seconds).toBe(Math.ceil((status.target_at! - now) / 1000));
        }
        if (status.state === "not_started") expect(total_seconds).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
  });

  it("rejects every clock that an API could not have written, whatever the timer", () => {
    const corrupt = fc.oneof(
      fc.record({ extended_seconds: fc.integer({ min: -31_622_400, max: -1 }) }),
      fc.record({ extended_seconds: fc.double({ min: 0.001, max: 1000, noInteger: true }) }),
      fc.record({ paused_ms: fc.integer({ min: -86_400_000, max: -1 }) }),
      fc.record({ published_at: fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY) }),
      fc.record({ paused_at: fc.constant(Number.NaN) }),
      fc.record({ started_at: fc.constant(Number.NEGATIVE_INFINITY) }),
    );
    fc.assert(
      fc.property(
        anyDefinition,
        anyClock,
        corrupt,
        anyViewer,
        instant,
        (d, c, bad, viewer, now) => {
          expect(() =>
            computeStatus({ definition: d, clock: { ...c, ...bad }, viewer }, now),
          ).toThrow(/^invalid timer clock: /);
        },
      ),
    );
  });

  it("counts down by exactly the time that passes while running", () => {
    fc.assert(
      fc.property(
        steadyDefinition,
        anyClock.map((c) => ({ ...c, paused_at: null })),
        anyViewer,
        instant,
        fc.integer({ min: 0, max: 10 * 86_400_000 }),
        (definition, c, viewer, t1, gap) => {
          const t2 = t1 + gap;
          const a = computeStatus({ definition, clock: c, viewer }, t1);
          const b = computeStatus({ definition, clock: c, viewer }, t2);
          fc.pre(a.state === "running" && b.state === "running");
          // The target stays put, so the remaining milliseconds (target - now)
          // shrink by exactly t2 - t1, and total_seconds is their ceiling.
          expect(b.target_at).toBe(a.target_at);
          const msA = a.target_at! - t1;
          const msB = b.target_at! - t2;
          expect(msA - msB).toBe(t2 - t1);
          expect(a.remaining.total_seconds).toBe(Math.ceil(msA / 1000));
          expect(b.remaining.total_seconds).toBe(Math.ceil(msB / 1000));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("does not move while paused", () => {
    fc.assert(
      fc.property(anyDefinition, anyClock, instant, instant, (definition, c, pausedAt, later) => {
        const paused = { ...c, paused_at: pausedAt };
        const a = computeStatus({ definition, clock: paused }, pausedAt);
        const b = computeStatus({ definition, clock: paused }, Math.max(pausedAt, later));
        expect(b.remaining).toEqual(a.remaining);
      }),
    );
  });
});
