// The create body's fast path (src/schema/fast-create.ts) against zod's timerCreateSchema:
// for a space of valid and invalid bodies, validateTimerCreate (fast path first) must give
// exactly what the schema alone gives: the same value, key order included, or the same
// issues (code, field, message) in the same order. And the fast path must take the plain
// bodies it is there for, or it would be a slower zod.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_DURATION_SECONDS } from "../src/schema/constants";
import { fastTimerCreate } from "../src/schema/fast-create";
import { validateTimerCreate, validateWithSchema } from "../src/schema/validate";
import { runsOf } from "./_fc-runs";

// A fixed seed keeps CI deterministic; FC_SEED explores other corners locally.
const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : 20_261_127;
const runs = { seed, numRuns: 3000 };

// Values of every JSON kind and the near misses of each field's rule.
const junk = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -5, max: 5 }),
  fc.double(),
  fc.string({ maxLength: 6 }),
  fc.constant([]),
  fc.constant({}),
  fc.constant("__proto__"),
);
const nameArb = fc.oneof(
  fc.constantFrom(
    "Launch",
    "  Sale  ",
    "",
    "   ",
    "x".repeat(200),
    "x".repeat(201),
    ` ${"y".repeat(200)} `,
  ),
  fc.string({ maxLength: 12 }),
  junk,
);
const zoneArb = fc.oneof(
  fc.constantFrom(
    "Etc/UTC",
    "Europe/Berlin",
    "America/St_Johns",
    "europe/berlin",
    "UTC",
    "Mars/Base",
    "",
  ),
  junk,
);
const instantArb = fc.oneof(
  fc.constantFrom(
    "2030-01-01T00:00:00Z",
    "2026-11-27T09:00:00+01:00",
    "2026-11-27T09:00:00.123456-05:30",
    "2026-11-27T09:00Z",
    "2026-11-27 09:00:00Z",
    "2026-11-27T09:00:00",
    "9999-12-31T23:59:59.999Z",
    "0000-01-01T00:00:00+00:01",
    "0000-01-01T00:00:00-00:01",
    "9999-12-31T23:59:59.999+00:01",
    "9999-12-31T23:59:59.999-00:01",
    "2026-02-30T00:00:00Z",
    "2026-11-27T24:00:00Z",
  ),
  fc
    .date({
      min: new Date(-62_000_000_000_000),
      max: new Date(250_000_000_000_000),
      noInvalidDate: true,
    })
    .map((d) => d.toISOString()),
  junk,
);
const localArb = fc.oneof(
  fc.constantFrom(
    "2026-11-27T09:00",
    "2026-11-27T09:00:30",
    "2026-03-29T02:30",
    "2026-11-27T09:00Z",
    "2026-11-27T09:00:00+01:00",
    "2026-13-01T00:00",
    "0000-01-01T00:00",
    "9999-12-31T23:59:59",
  ),
  junk,
);
const secondsArb = fc.oneof(
  fc.constantFrom(1, 3600, 31_622_400, 31_622_401, 0, -0, 1.5, -1, Number.NaN, 2 ** 53),
  fc.integer(),
  junk,
);
const metadataArb = fc.oneof(
  fc.constant({}),
  fc.dictionary(fc.string({ maxLength: 41 }), fc.oneof(fc.string({ maxLength: 8 }), junk), {
    maxKeys: 22,
  }),
  fc.constant({ campaign: "bf-2026" }),
  fc.constant(JSON.parse('{"__proto__": "x", "a": "b"}')),
  fc.constant({ ["k".repeat(40)]: "v".repeat(500) }),
  fc.constant({ ["k".repeat(41)]: "v" }),
  junk,
);
const lookArb = fc.oneof(
  fc.constant({}),
  fc.constant({ theme: "dark" }),
  fc.constant({ font_size: 64, units: ["seconds", "minutes"], locale: "pt-br" }),
  fc.constant({ background_color: "#abcdef", dark: { text_color: "#000000" } }),
  fc.constant({ font_size: 7 }),
  fc.constant({ units: ["days", "days"] }),
  fc.constant({ theme: "sepia" }),
  fc.constant({ cta: { url: "https://shop.example.com/x y", label: "Go" } }),
  fc.constant({ unknown: 1 }),
  junk,
);
const endedArb = fc.oneof(
  fc.constant({}),
  fc.constant({ text: "Sale over" }),
  fc.constant({ text: "x".repeat(201) }),
  fc.constant({ image_url: "https://cdn.example.com/é.png" }),
  fc.constant({ image_url: "http://cdn.example.com/a.png" }),
  fc.constant({ redirect_url: "https://example.com/", other: 1 }),
  junk,
);
const typeArb = fc.oneof(
  fc.constantFrom("fixed", "duration", "recurring", "personalized", "Fixed"),
  junk,
);

const fieldArbs = {
  type: typeArb,
  name: nameArb,
  timezone: zoneArb,
  metadata: metadataArb,
  look: lookArb,
  ended: endedArb,
  deadline_at: instantArb,
  deadline_local: localArb,
  allow_viewer_timezone: fc.oneof(fc.boolean(), junk),
  duration_seconds: secondsArb,
  not_after: instantArb,
  start_on: fc.oneof(fc.constantFrom("first_open", "first_human_open", "later"), junk),
  recurrence: fc.constant({ rrule: "FREQ=DAILY", dtstart: "2026-11-27T09:00" }),
  personalization: fc.constant({ source: "deadline" }),
  extra: junk,
};

const randomBodyArb = fc.record(fieldArbs, { requiredKeys: [] }).chain((fields) =>
  // Leave out most fields most of the time, so that valid bodies are common.
  fc.subarray(Object.keys(fields)).map((keys) => {
    const body: Record<string, unknown> = {};
    for (const key of keys) body[key] = (fields as Record<string, unknown>)[key];
    return body;
  }),
);

// Bodies the fast path is meant to take: valid fixed and duration timers without look.
const plainFixedArb = fc.record(
  {
    type: fc.constant("fixed"),
    name: fc.constantFrom("Launch", " Sale ", "x".repeat(200)),
    timezone: fc.constantFrom("Etc/UTC", "Europe/Berlin"),
    metadata: fc.constantFrom({}, { campaign: "bf-2026" }),
    deadline_at: fc
      .date({ min: new Date(0), max: new Date(4_000_000_000_000), noInvalidDate: true })
      .map((d) => d.toISOString()),
    allow_viewer_timezone: fc.boolean(),
  },
  { requiredKeys: ["type", "name", "deadline_at"] },
);
const plainLocalArb = fc.record(
  {
    type: fc.constant("fixed"),
    name: fc.constant("Launch"),
    timezone: fc.constantFrom("Europe/Berlin", "America/St_Johns"),
    deadline_local: fc.constantFrom("2026-11-27T09:00", "2026-03-29T02:30:15"),
  },
  { requiredKeys: ["type", "name", "timezone", "deadline_local"] },
);
const plainDurationArb = fc.record(
  {
    type: fc.constant("duration"),
    name: fc.constant("Offer"),
    duration_seconds: fc.integer({ min: 1, max: 31_622_400 }),
    not_after: fc.constant("2030-01-01T00:00:00+02:00"),
    start_on: fc.constantFrom("first_open", "first_human_open"),
  },
  { requiredKeys: ["type", "name", "duration_seconds"] },
);

// A plain valid body with up to three of its fields replaced, added or dropped: the near
// misses a client sends.
const mutation = fc.oneof(
  fc
    .constantFrom(...Object.keys(fieldArbs))
    .map((key) => ({ key, drop: true, value: undefined as unknown })),
  fc
    .constantFrom(...(Object.keys(fieldArbs) as Array<keyof typeof fieldArbs>))
    .chain((key) => fieldArbs[key].map((value) => ({ key, drop: false, value: value as unknown }))),
);
const nearBodyArb = fc
  .tuple(
    fc.oneof(plainFixedArb, plainLocalArb, plainDurationArb),
    fc.array(mutation, { maxLength: 3 }),
  )
  .map(([plain, changes]) => {
    const body: Record<string, unknown> = { ...plain };
    for (const { key, drop, value } of changes) {
      if (drop) delete body[key];
      else body[key] = value;
    }
    return body;
  });
const bodyArb = fc.oneof(randomBodyArb, nearBodyArb);

/** The two results, the value as JSON too (toEqual does not see key order). */
function bothWays(body: unknown) {
  const fast = validateTimerCreate(body);
  const reference = validateWithSchema(body);
  return { fast, reference, json: [JSON.stringify(fast), JSON.stringify(reference)] };
}

describe("the create body's fast path", () => {
  it("gives zod's value or zod's issues for any body", () => {
    const seen = { taken: 0, valid: 0, invalid: 0 };
    fc.assert(
      fc.property(bodyArb, (body) => {
        if (fastTimerCreate(body) !== undefined) seen.taken++;
        const { fast, reference, json } = bothWays(body);
        seen[reference.ok ? "valid" : "invalid"]++;
        expect(fast).toStrictEqual(reference);
        expect(json[0]).toBe(json[1]);
      }),
      runs,
    );
    // The space holds both kinds, and the fast path answered part of it itself (the share of
    // the runs made: mutation testing makes fewer than asked, see _fc-runs.ts).
    const made = runsOf(runs);
    expect(seen.valid + seen.invalid).toBe(made);
    expect(seen.taken).toBeGreaterThan(made / 10);
    expect(seen.valid).toBeGreaterThanOrEqual(seen.taken);
    expect(seen.invalid).toBeGreaterThan(made / 2);
  });

  it("takes the plain valid bodies it is for, with zod's value", () => {
    fc.assert(
      fc.property(fc.oneof(plainFixedArb, plainLocalArb, plainDurationArb), (body) => {
        const taken = fastTimerCreate(body);
        expect(taken).toBeDefined();
        const { fast, reference, json } = bothWays(body);
        expect(reference.ok).toBe(true);
        expect(fast).toStrictEqual(reference);
        expect(json[0]).toBe(json[1]);
      }),
      runs,
    );
  });

  it("gives out fresh objects: a caller's change to one definition is not in the next", () => {
    const body = { type: "fixed", name: "Launch", deadline_at: "2030-01-01T00:00:00Z" };
    const first = fastTimerCreate(body)!;
    (first.look.units as string[]).push("x");
    (first.metadata as Record<string, string>)["a"] = "b";
    const reference = validateWithSchema(body);
    expect(reference.ok && fastTimerCreate(body)).toStrictEqual(reference.ok && reference.value);
  });

  it("leaves every invalid body, and what it does not check, to zod", () => {
    const cases: unknown[] = [
      { type: "fixed", name: "x", deadline_at: "2030-01-01T00:00:00Z", extra: 1 },
      {
        type: "fixed",
        name: "x",
        deadline_at: "2030-01-01T00:00:00Z",
        deadline_local: "2030-01-01T00:00",
      },
      { type: "fixed", name: "x", deadline_local: "2030-01-01T00:00" },
      { type: "fixed", name: "", deadline_at: "2030-01-01T00:00:00Z" },
      {
        type: "fixed",
        name: "x",
        deadline_at: undefined,
        deadline_local: "2030-01-01T00:00",
        timezone: "Etc/UTC",
      },
      { type: "duration", name: "x", duration_seconds: 0 },
      { type: "duration", name: "x", duration_seconds: 10, start_on: "later" },
      {
        type: "recurring",
        name: "x",
        timezone: "Europe/Berlin",
        recurrence: { rrule: "FREQ=DAILY", dtstart: "2026-11-27T09:00" },
      },
      JSON.parse('{"type":"fixed","name":"x","deadline_at":"2030-01-01T00:00:00Z","__proto__":{}}'),
    ];
    for (const body of cases) {
      expect(fastTimerCreate(body as Record<string, unknown>)).toBeUndefined();
      const { fast, reference, json } = bothWays(body);
      expect(fast).toStrictEqual(reference);
      expect(json[0]).toBe(json[1]);
    }
  });
});

// The property above runs few cases under mutation testing, so each edge of the hand checks
// is pinned here too: the fast path must take a body exactly at a limit (or zod's work is
// done twice), and must not take one just past it, nor a value that only reads as valid text.
describe("the create body's fast path at its edges", () => {
  const fixed = { type: "fixed", name: "x", deadline_at: "2030-01-01T00:00:00Z" };
  const duration = { type: "duration", name: "x", duration_seconds: 60 };

  function takenAsZod(body: Record<string, unknown>): void {
    const reference = validateWithSchema(body);
    expect(reference.ok).toBe(true);
    expect(fastTimerCreate(body)).toStrictEqual(reference.ok && reference.value);
  }

  it("takes the smallest and largest values each field allows", () => {
    takenAsZod({ ...fixed, name: "x" });
    takenAsZod({ ...fixed, name: "y".repeat(200) });
    takenAsZod({ ...duration, duration_seconds: 1 });
    takenAsZod({ ...duration, duration_seconds: MAX_DURATION_SECONDS });
    takenAsZod({ ...fixed, deadline_at: "0000-01-01T00:00:00Z" });
    takenAsZod({ ...fixed, deadline_at: "9999-12-31T23:59:59.999Z" });
    takenAsZod({ ...duration, not_after: "9999-12-31T23:59:59.999Z" });
  });

  it("leaves to zod a body one step past a limit", () => {
    const cases = [
      { ...fixed, deadline_at: "9999-12-31T23:59:59.999-00:01" },
      { ...fixed, deadline_at: "0000-01-01T00:00:00+00:01" },
      { ...duration, not_after: "0000-01-01T00:00:00+00:01" },
      { ...duration, duration_seconds: MAX_DURATION_SECONDS + 1 },
      { ...duration, duration_seconds: 0 },
      { ...fixed, name: "y".repeat(201) },
    ];
    for (const body of cases) expect(fastTimerCreate(body), JSON.stringify(body)).toBeUndefined();
  });

  it("takes only text as text: a list holding a valid value is zod's to refuse", () => {
    const cases = [
      { ...fixed, deadline_at: ["2030-01-01T00:00:00Z"] },
      { ...duration, not_after: ["2030-01-01T00:00:00Z"] },
      { type: "fixed", name: "x", timezone: "Etc/UTC", deadline_local: ["2030-01-01T00:00"] },
      { ...fixed, timezone: "europe/berlin" },
      { ...fixed, timezone: ["Europe/Berlin"] },
    ];
    for (const body of cases) {
      expect(fastTimerCreate(body), JSON.stringify(body)).toBeUndefined();
      expect(validateWithSchema(body).ok).toBe(false);
    }
  });

  it("takes only the two types it checks, each with its own fields", () => {
    for (const type of ["recurring", "personalized", "evergreen", undefined]) {
      expect(fastTimerCreate({ ...duration, type })).toBeUndefined();
      expect(fastTimerCreate({ ...fixed, type })).toBeUndefined();
    }
    expect(fastTimerCreate({ ...fixed, duration_seconds: 60 })).toBeUndefined();
    expect(fastTimerCreate({ ...duration, deadline_at: "2030-01-01T00:00:00Z" })).toBeUndefined();
  });

  it("leaves to zod a body with keys JSON cannot hold: symbols, hidden properties", () => {
    const withSymbol = { ...fixed, [Symbol("s")]: 1 };
    expect(fastTimerCreate(withSymbol)).toBeUndefined();
    const hidden = { ...fixed };
    Object.defineProperty(hidden, "extra", { value: 1, enumerable: false });
    expect(fastTimerCreate(hidden)).toBeUndefined();
    // The same bodies without them are taken.
    expect(fastTimerCreate({ ...fixed })).toBeDefined();
  });

  it("fills metadata left out with a fresh {} and keeps the given one, as zod does", () => {
    takenAsZod({ ...fixed });
    takenAsZod({ ...fixed, metadata: { campaign: "bf", a: "" } });
    expect(fastTimerCreate({ ...fixed, metadata: null })).toBeUndefined();
    expect(fastTimerCreate({ ...fixed, metadata: { "": "x" } })).toBeUndefined();
    const first = fastTimerCreate({ ...fixed })!;
    (first.metadata as Record<string, string>)["a"] = "b";
    expect(fastTimerCreate({ ...fixed })!.metadata).toStrictEqual({});
  });
});
