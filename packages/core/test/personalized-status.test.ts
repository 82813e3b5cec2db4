// Personalized timers: reading the recipient's value from the URL (signed or
// not), then the status with fallback and clamping.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { signPersonalizedParams } from "../src/personalize/sign";
import { resolvePersonalizedViewer } from "../src/personalize/viewer";
import { type PersonalizedTimerDefinition, personalizedTimerSchema } from "../src/schema/timer";
import { emptyClock } from "../src/status/clock";
import { computeStatus } from "../src/status/index";
import { personalizedStatus } from "../src/status/personalized";
import type { ViewerContext } from "../src/status/types";

const ms = (text: string) => Date.parse(text);
const secret = "tps_0123456789abcdef0123456789abcdef";

function timer(personalization: Record<string, unknown>): PersonalizedTimerDefinition {
  return personalizedTimerSchema.parse({ type: "personalized", name: "test", personalization });
}

const byDeadline = timer({ source: "deadline" });
const signedDeadline = timer({ source: "deadline", require_signature: true });
const byStart = timer({ source: "start", offset_seconds: 86_400 });
const withFallback = timer({ source: "deadline", fallback_deadline_at: "2026-12-01T00:00:00Z" });

describe("resolvePersonalizedViewer", () => {
  test.each([
    [
      byDeadline,
      { deadline: "2026-12-01T09:00:00+01:00" },
      { valid: true, deadline_at: ms("2026-12-01T08:00:00Z") },
    ],
    [
      byDeadline,
      { deadline: "2026-12-01T09:00:00 01:00" },
      { valid: true, deadline_at: ms("2026-12-01T08:00:00Z") },
    ],
    [byDeadline, { deadline: "1796112000" }, { valid: true, deadline_at: 1_796_112_000_000 }],
    [byDeadline, { deadline: "2026-12-01T09:00:00" }, { valid: false, reason: "malformed" }],
    [byDeadline, { deadline: "tomorrow" }, { valid: false, reason: "malformed" }],
    [byDeadline, { deadline: "999999999999" }, { valid: false, reason: "malformed" }], // year 33658
    [
      byDeadline,
      { deadline: "9999-12-31T23:59:59Z" },
      { valid: true, deadline_at: ms("9999-12-31T23:59:59Z") },
    ],
    [byDeadline, { deadline: "-5" }, { valid: true, deadline_at: -5000 }],
    [byDeadline, {}, { valid: false, reason: "missing" }],
    [byDeadline, { deadline: "" }, { valid: false, reason: "missing" }],
    [byDeadline, { start: "2026-12-01T09:00:00Z" }, { valid: false, reason: "missing" }],
    [
      byStart,
      { start: "2026-12-01T09:00:00Z" },
      { valid: true, start_at: ms("2026-12-01T09:00:00Z") },
    ],
    [byStart, { deadline: "2026-12-01T09:00:00Z" }, { valid: false, reason: "missing" }],
  ])("%#: %j", (definition, params, expected) => {
    expect(resolvePersonalizedViewer(definition, params, null)).toEqual(expected);
  });

  test("signatures: required, present, wrong, edited", () => {
    const params = { deadline: "2026-12-01T09:00:00Z" };
    const sig = signPersonalizedParams(secret, params);
    const resolve = (d: PersonalizedTimerDefinition, p: Record<string, string>, s: string | null) =>
      resolvePersonalizedViewer(d, p, s);

    expect(resolve(signedDeadline, { ...params, sig }, secret)).toEqual({
      valid: true,
      deadline_at: ms("2026-12-01T09:00:00Z"),
    });
    expect(resolve(signedDeadline, params, secret)).toEqual({ valid: false, reason: "unsigned" });
    expect(resolve(signedDeadline, { ...params, sig: "" }, secret)).toEqual({
      valid: false,
      reason: "unsigned",
    });
    expect(resolve(signedDeadline, { ...params, sig }, null)).toEqual({
      valid: false,
      reason: "no_secret",
    });
    expect(resolve(signedDeadline, { deadline: "2027-12-01T09:00:00Z", sig }, secret)).toEqual({
      valid: false,
      reason: "bad_signature",
    });
    // Optional signatures: none is fine, a wrong one is refused.
    expect(resolve(byDeadline, params, secret).valid).toBe(true);
    expect(resolve(byDeadline, { deadline: "2027-12-01T09:00:00Z", sig }, secret)).toEqual({
      valid: false,
      reason: "bad_signature",
    });
    // Trackers' extra parameters do not matter.
    expect(resolve(signedDeadline, { ...params, sig, utm_campaign: "bf" }, secret).valid).toBe(
      true,
    );
  });
});

describe("personalizedStatus", () => {
  const now = ms("2026-11-30T09:00:00Z");
  const status = (
    definition: PersonalizedTimerDefinition,
    viewer?: ViewerContext,
    t = now,
    clock = emptyClock(),
  ) => personalizedStatus({ definition, clock, viewer }, t);

  test("a start-sourced timer without a viewer (no URL value) has no deadline", () => {
    expect(status(byStart)).toMatchObject({
      ended: true,
      target_at: null,
      deadline_source: "none",
    });
  });

  test("a deadline-sourced timer ignores a viewer's start (a first view), using its fallback", () => {
    const result = status(withFallback, { start_at: ms("2026-11-30T08:00:00Z") });
    expect(result).toMatchObject({
      deadline_source: "fallback",
      target_at: ms("2026-12-01T00:00:00Z"),
    });
  });

  test("deadline from the viewer", () => {
    expect(status(byDeadline, { deadline_at: ms("2026-12-01T09:00:00Z") })).toEqual({
      remaining: { total_seconds: 86_400, days: 1, hours: 0, minutes: 0, seconds: 0 },
      ended: false,
      state: "running",
      target_at: ms("2026-12-01T09:00:00Z"),
      deadline_source: "viewer",
    });
  });

  test("the dispatcher routes personalized timers here", () => {
    const viewer = { deadline_at: ms("2026-12-01T09:00:00Z") };
    expect(computeStatus({ definition: byDeadline, clock: emptyClock(), viewer }, now)).toEqual(
      status(byDeadline, viewer),
    );
  });

  test("the deadline instant itself is ended", () => {
    const deadline = ms("2026-12-01T09:00:00Z");
    expect(status(byDeadline, { deadline_at: deadline }, deadline)).toMatchObject({
      ended: true,
      state: "ended",
    });
    expect(status(byDeadline, { deadline_at: deadline }, deadline - 1)).toMatchObject({
      ended: false,
      remaining: { total_seconds: 1 },
    });
  });

  test("start + offset_seconds from the viewer", () => {
    expect(status(byStart, { start_at: ms("2026-11-30T08:00:00Z") })).toMatchObject({
      state: "running",
      target_at: ms("2026-12-01T08:00:00Z"),
      remaining: { total_seconds: 82_800 },
      deadline_source: "viewer",
    });
  });

  test("a start in the future: not started, the whole countdown shown", () => {
    expect(status(byStart, { start_at: ms("2026-12-05T00:00:00Z") })).toEqual({
      remaining: { total_seconds: 86_400, days: 1, hours: 0, minutes: 0, seconds: 0 },
      ended: false,
      state: "not_started",
      target_at: ms("2026-12-06T00:00:00Z"),
      deadline_source: "viewer",
    });
  });

  test("a start exactly now is running, not waiting; one a millisecond later is not started", () => {
    const start = now;
    expect(status(byStart, { start_at: start })).toMatchObject({
      state: "running",
      remaining: { total_seconds: 86_400 },
      target_at: start + 86_400_000,
    });
    expect(status(byStart, { start_at: start + 1 }).state).toBe("not_started");
  });

  test("a start in the future: extensions and finished pauses move its target too", () => {
    const clock = { ...emptyClock(), extended_seconds: 60, paused_ms: 5000 };
    const start = ms("2026-12-05T00:00:00Z");
    expect(status(byStart, { start_at: start }, now, clock)).toMatchObject({
      state: "not_started",
      remaining: { total_seconds: 86_460 },
      target_at: start + 86_400_000 + 60_000 + 5000,
    });
  });

  test("no valid viewer value: the fallback deadline, else ended", () => {
    expect(status(withFallback, undefined)).toMatchObject({
      target_at: ms("2026-12-01T00:00:00Z"),
      remaining: { total_seconds: 54_000 },
      deadline_source: "fallback",
    });
    expect(status(withFallback, {})).toMatchObject({ deadline_source: "fallback" });
    expect(status(byDeadline, undefined)).toEqual({
      remaining: { total_seconds: 0, days: 0, hours: 0, minutes: 0, seconds: 0 },
      ended: true,
      state: "ended",
      target_at: null,
      deadline_source: "none",
    });
    // A start-based timer ignores a deadline and vice versa.
    expect(status(byStart, { deadline_at: ms("2026-12-01T09:00:00Z") })).toMatchObject({
      deadline_source: "none",
    });
  });

  test("absurd values are clamped: year 9999 shows max_seconds, negative starts are long over", () => {
    const limited = timer({ source: "deadline", max_seconds: 3600 });
    expect(status(limited, { deadline_at: ms("9999-12-31T23:59:59Z") })).toMatchObject({
      ended: false,
      remaining: { total_seconds: 3600 },
      target_at: now + 3_600_000,
    });
    expect(status(byStart, { start_at: -1_000_000 })).toMatchObject({
      ended: true,
      target_at: -1_000_000 + 86_400_000,
    });
    expect(status(byDeadline, { deadline_at: Number.NaN })).toMatchObject({
      deadline_source: "none",
      ended: true,
    });
  });

  test("a start-based countdown is at most max_seconds long, measured from the recipient's start", () => {
    const short = timer({ source: "start", offset_seconds: 86_400, max_seconds: 3600 });
    const start = ms("2026-11-30T08:30:00Z");
    expect(status(short, { start_at: start })).toMatchObject({ target_at: start + 3_600_000 });
    expect(status(short, { start_at: start }, now + 60_000).target_at).toBe(start + 3_600_000);
  });

  test("pause freezes, extend adds", () => {
    const deadline = ms("2026-12-01T09:00:00Z");
    const paused = { ...emptyClock(), paused_at: now };
    expect(status(byDeadline, { deadline_at: deadline }, now + 5000, paused)).toMatchObject({
      state: "paused",
      remaining: { total_seconds: 86_400 },
    });
    const extended = { ...emptyClock(), extended_seconds: 60 };
    expect(status(byDeadline, { deadline_at: deadline }, now, extended).target_at).toBe(
      deadline + 60_000,
    );
  });

  test("remaining never increases as time passes, and falls by the elapsed time once in range", () => {
    const limited = timer({ source: "deadline", max_seconds: 86_400 });
    fc.assert(
      fc.property(
        fc.integer({ min: ms("2026-01-01T00:00:00Z"), max: ms("2028-01-01T00:00:00Z") }),
        fc.integer({ min: ms("2025-01-01T00:00:00Z"), max: ms("2029-01-01T00:00:00Z") }),
        fc.integer({ min: 0, max: 10 * 86_400 }),
        (t1, deadline, elapsedSeconds) => {
          const t2 = t1 + elapsedSeconds * 1000;
          const a = status(limited, { deadline_at: deadline }, t1).remaining.total_seconds;
          const b = status(limited, { deadline_at: deadline }, t2).remaining.total_seconds;
          expect(b).toBeLessThanOrEqual(a);
          if (deadline - t1 <= 86_400_000 && b > 0) expect(a - b).toBe(elapsedSeconds);
        },
      ),
      { numRuns: 500, seed: 20_261_122 },
    );
  });
});
