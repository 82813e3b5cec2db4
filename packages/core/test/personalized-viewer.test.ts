// Reading a recipient's value from the URL: optional and required signatures, the
// accepted forms of an instant and their bounds (years 0000..9999).
import { describe, expect, test } from "vitest";
import { signPersonalizedParams } from "../src/personalize/sign";
import { resolvePersonalizedViewer } from "../src/personalize/viewer";
import { type PersonalizedTimerDefinition, personalizedTimerSchema } from "../src/schema/timer";

const secret = "tps_0123456789abcdef0123456789abcdef";
const timer = (personalization: Record<string, unknown>): PersonalizedTimerDefinition =>
  personalizedTimerSchema.parse({ type: "personalized", name: "t", personalization });
const optional = timer({ source: "deadline" });
const required = timer({ source: "deadline", require_signature: true });
const deadline = "2026-12-01T09:00:00Z";
const at = Date.parse(deadline);

describe("signatures", () => {
  test("optional signing: an empty sig= is no signature, and the value is used", () => {
    expect(resolvePersonalizedViewer(optional, { deadline, sig: "" }, secret)).toEqual({
      valid: true,
      deadline_at: at,
    });
    expect(resolvePersonalizedViewer(optional, { deadline }, secret)).toEqual({
      valid: true,
      deadline_at: at,
    });
  });

  test("optional signing and no secret: a sig cannot be checked and is ignored", () => {
    expect(resolvePersonalizedViewer(optional, { deadline, sig: "anything" }, null)).toEqual({
      valid: true,
      deadline_at: at,
    });
  });

  test("optional signing with a secret: a wrong sig means an edited URL and is refused", () => {
    const sig = signPersonalizedParams(secret, { deadline });
    expect(resolvePersonalizedViewer(optional, { deadline, sig }, secret).valid).toBe(true);
    expect(
      resolvePersonalizedViewer(optional, { deadline: "2027-12-01T09:00:00Z", sig }, secret),
    ).toEqual({ valid: false, reason: "bad_signature" });
  });

  test("required signing: no secret, no sig, an empty sig and a wrong sig are each refused", () => {
    const sig = signPersonalizedParams(secret, { deadline });
    expect(resolvePersonalizedViewer(required, { deadline, sig }, secret)).toEqual({
      valid: true,
      deadline_at: at,
    });
    expect(resolvePersonalizedViewer(required, { deadline, sig }, null)).toEqual({
      valid: false,
      reason: "no_secret",
    });
    for (const params of [{ deadline }, { deadline, sig: "" }] as Record<string, string>[]) {
      expect(resolvePersonalizedViewer(required, params, secret)).toEqual({
        valid: false,
        reason: "unsigned",
      });
    }
    expect(resolvePersonalizedViewer(required, { deadline, sig: `${sig}x` }, secret)).toEqual({
      valid: false,
      reason: "bad_signature",
    });
  });

  test("a signed but malformed value is malformed, not valid", () => {
    const params = { deadline: "soon" };
    const sig = signPersonalizedParams(secret, params);
    expect(resolvePersonalizedViewer(required, { ...params, sig }, secret)).toEqual({
      valid: false,
      reason: "malformed",
    });
  });
});

describe("instants", () => {
  const read = (value: string) => resolvePersonalizedViewer(optional, { deadline: value }, null);

  test.each([
    ["-62167219200", -62_167_219_200_000], // 0000-01-01T00:00:00Z, the first instant shown
    ["253402300799", 253_402_300_799_000], // 9999-12-31T23:59:59Z
    ["0000-01-01T00:00:00Z", -62_167_219_200_000],
    ["9999-12-31T23:59:59.999Z", 253_402_300_799_999],
    ["0", 0],
    ["999999999999", null], // 12 digits: year 33658
    ["-62167219201", null],
    ["253402300800", null],
    ["9999-12-31T23:59:59.999-00:01", null],
    ["0000-01-01T00:00:00+00:01", null],
    ["1234567890123", null], // 13 digits: not Unix seconds, not a date-time
    ["1796112000x", null],
    ["x1796112000", null],
    ["1796112000.5", null],
    ["+1796112000", null],
    ["2026-12-01T09:00:00 01:00", Date.parse("2026-12-01T08:00:00Z")],
    ["2026-12-01T09:00:00 0100", Date.parse("2026-12-01T08:00:00Z")],
    ["2026-12-01T09:00:00 01", Date.parse("2026-12-01T08:00:00Z")],
    ["2026-12-01T09:00:00 01:00x", null],
    ["2026-12-01T09:00:00 1:00", null],
  ])("%s", (value, expected) => {
    expect(read(value)).toEqual(
      expected === null
        ? { valid: false, reason: "malformed" }
        : { valid: true, deadline_at: expected },
    );
  });

  test("a start source reads `start` and returns start_at", () => {
    const byStart = timer({ source: "start", offset_seconds: 60 });
    expect(resolvePersonalizedViewer(byStart, { start: "60", deadline: "1" }, null)).toEqual({
      valid: true,
      start_at: 60_000,
    });
    expect(resolvePersonalizedViewer(byStart, { deadline: "60" }, null)).toEqual({
      valid: false,
      reason: "missing",
    });
  });
});
