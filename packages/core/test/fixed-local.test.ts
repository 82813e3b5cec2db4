// Wall-time deadlines: a fixed timer given as `deadline_local` in a `timezone`.
// Gap and fold instants in zones with whole-hour, half-hour (Lord Howe) and
// 45-minute (Chatham) transitions, the cross-field validation, PATCH switching
// between the two forms, and a property test against luxon's own offsets.
import fc from "fast-check";
import { DateTime, IANAZone } from "luxon";
import { describe, expect, it } from "vitest";
import {
  applyTimerPatch,
  computeStatus,
  emptyClock,
  type TimerDefinition,
  type TimerRow,
  timerView,
  timeZoneNames,
  validateTimerCreate,
  validateTimerPatch,
} from "../src/index";

const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : 20_261_123;

function created(body: Record<string, unknown>): TimerDefinition {
  const result = validateTimerCreate({ type: "fixed", name: "Sale", ...body });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value;
}

function issues(body: Record<string, unknown>) {
  const result = validateTimerCreate({ type: "fixed", name: "Sale", ...body });
  if (result.ok) throw new Error("expected issues");
  return result.issues;
}

function row(definition: TimerDefinition): TimerRow {
  return {
    id: "0190f5f0-0000-7000-8000-000000000000",
    name: "Sale",
    type: definition.type,
    status: "draft",
    environment: "sandbox",
    revision: 1,
    created_at: 0,
    updated_at: 0,
    published_at: null,
    data: { definition, clock: emptyClock() },
  };
}

const target = (definition: TimerDefinition) => {
  const at = computeStatus({ definition, clock: emptyClock() }, 0).target_at;
  return at === null ? null : new Date(at).toISOString();
};

describe("deadline_local resolves with the recurrence rules", () => {
  it.each([
    // zone, wall time, instant, why
    ["America/New_York", "2026-03-08T02:30", "2026-03-08T07:30:00.000Z", "gap: 03:30 EDT"],
    ["America/New_York", "2026-03-08T01:59:59", "2026-03-08T06:59:59.000Z", "before the gap"],
    ["America/New_York", "2026-11-01T01:30", "2026-11-01T05:30:00.000Z", "fold: earlier, EDT"],
    ["America/New_York", "2026-11-01T02:00", "2026-11-01T07:00:00.000Z", "after the fold, EST"],
    ["Europe/Berlin", "2026-03-29T02:30", "2026-03-29T01:30:00.000Z", "gap: 03:30 CEST"],
    ["Europe/Berlin", "2026-10-25T02:30", "2026-10-25T00:30:00.000Z", "fold: earlier, CEST"],
    ["Europe/Berlin", "2026-10-25T03:00", "2026-10-25T02:00:00.000Z", "after the fold, CET"],
    ["Australia/Lord_Howe", "2026-10-04T02:15", "2026-10-03T15:45:00.000Z", "half-hour gap"],
    ["Australia/Lord_Howe", "2026-04-05T01:45", "2026-04-04T14:45:00.000Z", "half-hour fold"],
    ["Pacific/Chatham", "2026-09-27T03:00", "2026-09-26T14:15:00.000Z", "gap 02:45-03:45"],
    ["Pacific/Chatham", "2026-04-05T03:00", "2026-04-04T13:15:00.000Z", "fold: +13:45"],
    ["Asia/Kolkata", "2026-05-01T09:00", "2026-05-01T03:30:00.000Z", "no DST"],
  ])("%s %s -> %s (%s)", (timezone, local, instant) => {
    const definition = created({ deadline_local: local, timezone });
    expect(definition).toMatchObject({ deadline_local: `${local}:00`.slice(0, 19), timezone });
    expect(definition).not.toHaveProperty("deadline_at");
    expect(target(definition)).toBe(instant);
    // Shown back in both forms.
    const view = timerView(row(definition));
    expect(view["deadline_at"]).toBe(instant);
    expect(view["deadline_local"]).toBe(`${local}:00`.slice(0, 19));
    expect(view["timezone"]).toBe(timezone);
  });

  it("shows an instant-form deadline with deadline_local null", () => {
    const view = timerView(row(created({ deadline_at: "2026-11-27T09:00:00+01:00" })));
    expect(view["deadline_at"]).toBe("2026-11-27T08:00:00.000Z");
    expect(view["deadline_local"]).toBeNull();
  });

  it("stores no instant, so every read resolves with the tz rules in force", () => {
    // The stored definition is exactly what the client meant; nothing derived from
    // today's tz data is kept that a tzdata update could leave stale.
    const definition = created({ deadline_local: "2030-07-01T12:00", timezone: "Europe/Berlin" });
    expect(JSON.stringify(definition)).not.toMatch(
      /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d)/,
    );
  });
});

describe("validation", () => {
  it("asks for the deadline when neither form is sent", () => {
    expect(issues({})).toEqual([
      {
        code: "missing_field",
        field: "deadline_at",
        message: "deadline_at is required for a fixed timer",
      },
    ]);
  });

  it("refuses both forms at once", () => {
    expect(
      issues({
        deadline_at: "2026-11-27T09:00:00Z",
        deadline_local: "2026-11-27T09:00",
        timezone: "Europe/Berlin",
      }),
    ).toEqual([
      {
        code: "validation_error",
        field: "deadline_local",
        message:
          "deadline_local cannot be combined with deadline_at: send the deadline in one form",
      },
    ]);
  });

  it("requires the zone with a wall-clock deadline rather than reading it in UTC", () => {
    expect(issues({ deadline_local: "2026-11-27T09:00" })).toEqual([
      {
        code: "missing_field",
        field: "timezone",
        message: "timezone is required with deadline_local (the zone its wall-clock time is in)",
      },
    ]);
  });

  it.each([
    ["2026-11-27T09:00:00+01:00", "without Z or offset"],
    ["2026-02-30T09:00", "must be a local date-time"],
    ["tomorrow", "must be a local date-time"],
  ])("rejects deadline_local %s", (deadline_local, message) => {
    const [first, ...rest] = issues({ deadline_local, timezone: "Europe/Berlin" });
    expect(first).toMatchObject({ code: "validation_error", field: "deadline_local" });
    expect(first?.message).toContain(message);
    expect(rest).toEqual([]);
  });

  it("gives a bad zone its own code", () => {
    expect(issues({ deadline_local: "2026-11-27T09:00", timezone: "Berlin" })[0]).toMatchObject({
      code: "invalid_timezone",
      field: "timezone",
    });
  });

  it("refuses a wall time that resolves outside the years 0000..9999", () => {
    for (const [deadline_local, timezone] of [
      ["0000-01-01T00:00", "Asia/Tokyo"],
      ["9999-12-31T23:00", "America/Los_Angeles"],
    ])
      expect(issues({ deadline_local, timezone })).toEqual([
        expect.objectContaining({ code: "validation_error", field: "deadline_local" }),
      ]);
    expect(
      target(created({ deadline_local: "9999-12-31T23:00", timezone: "Pacific/Kiritimati" })),
    ).toBe("9999-12-31T09:00:00.000Z");
  });
});

describe("PATCH", () => {
  const patched = (current: TimerDefinition, body: unknown) => {
    const patch = validateTimerPatch("fixed", body);
    if (!patch.ok) return patch;
    return applyTimerPatch(current, patch.value);
  };

  it("switches between the forms: one replaces the other", () => {
    const instant = created({ deadline_at: "2026-11-27T09:00:00Z", timezone: "Europe/Berlin" });
    const local = patched(instant, { deadline_local: "2026-12-01T10:00" });
    expect(local.ok && local.value).toMatchObject({ deadline_local: "2026-12-01T10:00:00" });
    expect(local.ok && local.value).not.toHaveProperty("deadline_at");
    if (!local.ok) return;
    expect(target(local.value)).toBe("2026-12-01T09:00:00.000Z");
    const back = patched(local.value, { deadline_at: "2026-12-02T00:00:00Z" });
    expect(back.ok).toBe(true);
    expect(back.ok && back.value).not.toHaveProperty("deadline_local");
    // A new zone moves a wall-clock deadline with it.
    const moved = patched(local.value, { timezone: "America/New_York" });
    expect(moved.ok && target(moved.value)).toBe("2026-12-01T15:00:00.000Z");
  });

  it("refuses both forms in one patch, and a zone reset under a wall-clock deadline", () => {
    const local = created({ deadline_local: "2026-12-01T10:00", timezone: "Europe/Berlin" });
    const both = patched(local, {
      deadline_at: "2026-12-02T00:00:00Z",
      deadline_local: "2026-12-01T10:00",
    });
    expect(both.ok).toBe(false);
    expect(!both.ok && both.issues[0]?.field).toBe("deadline_local");
    const reset = patched(local, { timezone: null });
    expect(!reset.ok && reset.issues[0]).toMatchObject({
      code: "missing_field",
      field: "timezone",
    });
  });
});

describe("property: the resolved deadline is the wall time, or the gap/fold rule", () => {
  const offsetMs = (zone: IANAZone, t: number) => Math.round(zone.offset(t) * 60_000);

  it("agrees with luxon's uncached offsets in every accepted zone", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...timeZoneNames),
        // 1970..2100, on the minute: wall times land on every kind of transition.
        fc.integer({ min: 0, max: 68_000_000 }),
        (timezone, minutes) => {
          const localMs = minutes * 60_000;
          const text = new Date(localMs).toISOString().slice(0, 19);
          const definition = created({ deadline_local: text, timezone });
          const at = Date.parse(target(definition) ?? "");
          expect(timerView(row(definition))["deadline_at"]).toBe(target(definition));
          const zone = IANAZone.create(timezone);
          // Every instant whose wall clock reads `text`: one, two (fold) or none (gap).
          const offsets = new Set([
            offsetMs(zone, localMs - 86_400_000),
            offsetMs(zone, localMs),
            offsetMs(zone, localMs + 86_400_000),
          ]);
          const candidates = [...offsets]
            .map((off) => localMs - off)
            .filter((t) => localMs - offsetMs(zone, t) === t);
          if (candidates.length > 0) {
            expect(at).toBe(Math.min(...candidates));
            const wall = DateTime.fromMillis(at, { zone: timezone }).toFormat(
              "yyyy-MM-dd'T'HH:mm:ss",
            );
            expect(wall).toBe(text);
          } else {
            // Gap: forward by its length, i.e. read with the offset before it.
            const before = offsetMs(zone, localMs - 86_400_000);
            const after = offsetMs(zone, localMs + 86_400_000);
            expect(at).toBe(localMs - before);
            expect(at + offsetMs(zone, at)).toBe(localMs + (after - before));
          }
        },
      ),
      { seed, numRuns: 2000 },
    );
  });
});
