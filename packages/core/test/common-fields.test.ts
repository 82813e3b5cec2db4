// The table of common timer fields (src/schema/common-fields.ts) is the one place they are
// written: every type's create and PATCH schema, the create fast path and the timer object
// take them from it, in its order. The timer object's key order is pinned here too, so that
// deriving it from the table changed nothing a client sees.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  emptyClock,
  TIMER_TYPES,
  type TimerDefinition,
  type TimerRow,
  timerPatchSchemas,
  timerSchemas,
  timerView,
  validateTimerCreate,
} from "../src/index";
import {
  COMMON_FIELD_NAMES,
  COMMON_FIELDS,
  commonCreateShape,
  commonPatchShape,
  shownCommonFields,
} from "../src/schema/common-fields";
import { DEFAULT_TIMEZONE } from "../src/schema/constants";
import { fastTimerCreate } from "../src/schema/fast-create";

const BODIES: Record<string, Record<string, unknown>> = {
  fixed: { type: "fixed", name: "Sale", deadline_at: "2030-01-01T00:00:00Z" },
  duration: { type: "duration", name: "Sale", duration_seconds: 60 },
  recurring: {
    type: "recurring",
    name: "Weekly",
    timezone: "Europe/Berlin",
    recurrence: { rrule: "FREQ=WEEKLY;BYDAY=FR", dtstart: "2026-11-27T17:00" },
  },
  personalized: { type: "personalized", name: "Yours", personalization: { source: "deadline" } },
};

function created(body: Record<string, unknown>): TimerDefinition {
  const result = validateTimerCreate(body);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value;
}

function row(definition: TimerDefinition, data: Record<string, unknown> = {}): TimerRow {
  return {
    id: "0190f5f0-0000-7000-8000-000000000000",
    name: definition.name,
    type: definition.type,
    status: "published",
    environment: "production",
    revision: 1,
    created_at: 0,
    updated_at: 0,
    published_at: 0,
    data: { definition, clock: emptyClock(), ...data },
  };
}

describe("the table of common fields", () => {
  it("gives every type's create and PATCH schema its fields, after `type`, in its order", () => {
    expect(COMMON_FIELD_NAMES).toEqual(["name", "timezone", "metadata", "look", "ended"]);
    for (const type of TIMER_TYPES) {
      const create = Object.keys(timerSchemas[type].shape);
      expect(create.slice(0, COMMON_FIELD_NAMES.length + 1)).toEqual([
        "type",
        ...COMMON_FIELD_NAMES,
      ]);
      const patch = Object.keys(timerPatchSchemas[type].shape);
      expect(patch.slice(0, COMMON_FIELD_NAMES.length + 1)).toEqual([
        "type",
        ...COMMON_FIELD_NAMES,
      ]);
    }
  });

  it("makes a PATCH field optional, and nullable (reset to its default) unless required", () => {
    for (const type of TIMER_TYPES) {
      const patch = timerPatchSchemas[type].shape as Record<
        string,
        { safeParse(v: unknown): { success: boolean } }
      >;
      for (const key of COMMON_FIELD_NAMES) {
        expect(patch[key]!.safeParse(undefined).success).toBe(true);
        // The one required common field has no default to reset to; a recurring timer keeps its zone.
        const resettable = key !== "name" && !(type === "recurring" && key === "timezone");
        expect(patch[key]!.safeParse(null).success, `${type}.${key}`).toBe(resettable);
      }
    }
    expect(COMMON_FIELDS.name.create().safeParse(undefined).success).toBe(false);
  });

  it("lets the fast path take bodies with every common field, as zod does", () => {
    const full = {
      ...BODIES.fixed,
      timezone: "Europe/Berlin",
      metadata: { campaign: "bf" },
      look: { theme: "dark" },
      ended: { text: "Over" },
    };
    const fast = fastTimerCreate(full);
    expect(fast).toBeDefined();
    expect(JSON.stringify(fast)).toBe(JSON.stringify(created(full)));
  });

  it("shows each stored field, and the default of one a row stored before it existed lacks", () => {
    const definition = created(BODIES.duration!);
    const { metadata: _m, ended: _e, ...older } = definition;
    const shown = shownCommonFields(older);
    expect(shown.metadata).toEqual({});
    expect(shown.ended).toEqual({ text: "Ended" });
    expect(shown.look).toEqual(definition.look);
    expect(Object.keys(shown)).toEqual(COMMON_FIELD_NAMES);
  });
});

describe("the timer object's keys", () => {
  const order = (definition: TimerDefinition, data?: Record<string, unknown>) =>
    Object.keys(timerView(row(definition, data), "https://t.example"));
  const head = ["id", "object", "name", "type", "status", "environment", "timezone", "deadline_at"];
  const tail = ["look", "ended", "metadata", "revision", "created_at", "updated_at"];
  const last = ["published_at", "urls"];

  it("come in the order clients have always seen", () => {
    expect(order(created(BODIES.fixed!))).toEqual([
      ...head,
      "allow_viewer_timezone",
      "deadline_local",
      ...tail,
      ...last,
    ]);
    expect(order(created(BODIES.duration!))).toEqual([
      ...head,
      "duration_seconds",
      "start_on",
      ...tail,
      ...last,
    ]);
    expect(order(created(BODIES.recurring!))).toEqual([
      ...head,
      "recurrence",
      "allow_viewer_timezone",
      ...tail,
      ...last,
    ]);
    expect(order(created(BODIES.personalized!), { signing_secret: "s" })).toEqual([
      ...head,
      "personalization",
      "signing_secret",
      ...tail,
      ...last,
    ]);
  });
});

// The name, timezone and metadata rules, read off schemas built now (the create schemas of timer.ts are
// built once, at import): what POST and PATCH accept, and what the API reference says of it.
describe("the name, timezone and metadata fields", () => {
  const create = () => commonCreateShape();
  const patch = () => commonPatchShape();

  it("take a name of 1 to 200 characters once trimmed, trimmed", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 210 }), fc.constantFrom("", " ", "  \n"), (text, pad) => {
        const trimmed = text.trim();
        const valid = trimmed.length >= 1 && trimmed.length <= 200;
        for (const shape of [create(), patch()]) {
          const parsed = shape.name.safeParse(`${pad}${text}${pad}`);
          expect(parsed.success).toBe(valid);
          if (parsed.success) expect(parsed.data).toBe(trimmed);
        }
      }),
      { seed: 20_261_129, numRuns: 200 },
    );
    for (const name of ["x", "xy", "z".repeat(200), " Sale "])
      expect(create().name.parse(name)).toBe(name.trim());
    for (const name of ["", "   ", "z".repeat(201)])
      expect(create().name.safeParse(name).success).toBe(false);
  });

  it("takes up to 20 metadata keys of 1..40 characters, values of up to 500", () => {
    const meta = create().metadata;
    const keys = (n: number) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, "v"]));
    expect(meta.parse(undefined)).toStrictEqual({});
    expect(meta.parse({ a: "", ["k".repeat(40)]: "v".repeat(500) })).toStrictEqual({
      a: "",
      ["k".repeat(40)]: "v".repeat(500),
    });
    expect(meta.parse(keys(20))).toStrictEqual(keys(20));
    for (const bad of [{ "": "v" }, { ["k".repeat(41)]: "v" }, { a: "v".repeat(501) }, { a: 1 }])
      expect(meta.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    const tooMany = meta.safeParse(keys(21));
    expect(tooMany.success).toBe(false);
    expect(tooMany.error?.issues.map((i) => i.message)).toEqual(["must have at most 20 keys"]);
    expect(patch().metadata.parse(keys(20))).toStrictEqual(keys(20));
    expect(patch().metadata.safeParse(keys(21)).success).toBe(false);
  });

  it("are described in the API reference with their limits and an example", () => {
    const { $schema: _n, ...name } = z.toJSONSchema(create().name);
    expect(name).toStrictEqual({
      type: "string",
      minLength: 1,
      maxLength: 200,
      description: "Name shown in lists; never rendered.",
      examples: ["Black Friday"],
    });
    const { $schema: _z, ...timezone } = z.toJSONSchema(create().timezone, { io: "input" });
    expect(timezone).toStrictEqual({
      default: DEFAULT_TIMEZONE,
      type: "string",
      description:
        "Canonical IANA time zone identifier (Area/Location, or Etc/UTC); GET /timezones lists them.",
      examples: ["Europe/Berlin"],
    });
    const { $schema: _m, ...metadata } = z.toJSONSchema(create().metadata, { io: "input" });
    expect(metadata).toStrictEqual({
      default: {},
      type: "object",
      propertyNames: { type: "string", minLength: 1, maxLength: 40 },
      additionalProperties: { type: "string", maxLength: 500 },
      description: "Up to 20 keys of 1..40 characters with values of up to 500 characters.",
      examples: [{ campaign: "bf-2026" }],
    });
  });
});
