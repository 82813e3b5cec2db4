import {
  applyTimerPatch,
  DEFAULT_LOOK,
  type TimerDefinition,
  validateTimerPatch,
} from "@tminus/core";
import { describe, expect, it } from "vitest";
import { define } from "./_define";

const fixed = define({
  type: "fixed",
  name: "Launch",
  deadline_at: "2026-11-27T09:00:00+01:00",
  timezone: "Europe/Berlin",
  metadata: { campaign: "bf" },
  look: { theme: "dark" },
});

function patched(current: TimerDefinition, body: unknown): TimerDefinition {
  const patch = validateTimerPatch(current.type, body);
  if (!patch.ok) throw new Error(JSON.stringify(patch.issues));
  const result = applyTimerPatch(current, patch.value);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value;
}

describe("validateTimerPatch", () => {
  it("accepts an empty patch and changes nothing", () => {
    expect(patched(fixed, {})).toEqual(fixed);
  });

  it("validates and normalizes the fields it gets", () => {
    const result = validateTimerPatch("fixed", { deadline_at: "2026-12-01T00:00:00-05:00" });
    expect(result).toEqual({ ok: true, value: { deadline_at: "2026-12-01T05:00:00.000Z" } });
  });

  it("refuses to change the type but accepts the same type sent back", () => {
    const result = validateTimerPatch("fixed", { type: "duration" });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.issues[0]).toMatchObject({ code: "validation_error", field: "type" });
      expect(result.issues[0]?.message).toContain("cannot be changed");
    }
    expect(validateTimerPatch("fixed", { type: "fixed" }).ok).toBe(true);
  });

  it("allows null only where it clears an optional field", () => {
    expect(validateTimerPatch("fixed", { look: null, metadata: null, timezone: null }).ok).toBe(
      true,
    );
    expect(validateTimerPatch("duration", { not_after: null }).ok).toBe(true);
    for (const [type, body] of [
      ["fixed", { name: null }],
      ["fixed", { deadline_at: null }],
      ["duration", { duration_seconds: null }],
      ["recurring", { timezone: null }],
      ["recurring", { recurrence: null }],
      ["personalized", { personalization: null }],
    ] as const) {
      const result = validateTimerPatch(type, body);
      expect(result.ok, JSON.stringify(body)).toBe(false);
    }
  });

  it("reports issues like create does", () => {
    const result = validateTimerPatch("duration", {
      deadline_at: "2026-11-27T09:00:00Z",
      timezone: "US/Eastern",
    });
    expect(result).toEqual({
      ok: false,
      issues: [
        expect.objectContaining({ code: "invalid_timezone", field: "timezone" }),
        {
          code: "validation_error",
          field: "deadline_at",
          message: "deadline_at is not a field of a duration timer",
        },
      ],
    });
    expect(validateTimerPatch("fixed", [1])).toMatchObject({
      ok: false,
      issues: [{ field: "body" }],
    });
  });
});

describe("applyTimerPatch", () => {
  it("replaces top-level fields whole and resets nulls to defaults", () => {
    const next = patched(fixed, {
      name: "Relaunch",
      look: { font: "mono" },
      metadata: null,
      timezone: null,
    });
    expect(next).toMatchObject({ name: "Relaunch", metadata: {}, timezone: "Etc/UTC" });
    // A look sent is the complete new look: the dark theme was not repeated, so it is gone.
    expect(next.look).toEqual({ ...DEFAULT_LOOK, font: "mono" });
    expect(patched(fixed, { look: null }).look).toEqual(DEFAULT_LOOK);
  });

  it("clears a duration timer's cap", () => {
    const duration = define({
      type: "duration",
      name: "Offer",
      duration_seconds: 60,
      not_after: "2026-12-01T00:00:00Z",
    });
    expect(patched(duration, { not_after: null })).not.toHaveProperty("not_after");
  });

  it("sets a duration timer's start_on, and null resets it to first_open", () => {
    const duration = define({ type: "duration", name: "Offer", duration_seconds: 60 });
    const human = patched(duration, { start_on: "first_human_open" });
    expect(human).toMatchObject({ start_on: "first_human_open" });
    expect(patched(human, { start_on: null })).toMatchObject({ start_on: "first_open" });
    expect(validateTimerPatch("duration", { start_on: "sometimes" }).ok).toBe(false);
    expect(validateTimerPatch("fixed", { start_on: "first_open" }).ok).toBe(false);
  });

  it("keeps what the client read and sent back unchanged", () => {
    expect(patched(fixed, fixed)).toEqual(fixed);
  });
});
