import {
  DEFAULT_LOOK,
  endedSchema,
  lookSchema,
  type TimerDefinition,
  timerCreateSchema,
  timerView,
  validateTimerCreate,
} from "@tminus/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const fixed = { type: "fixed", name: "Launch", deadline_at: "2026-11-27T09:00:00+01:00" };
const duration = { type: "duration", name: "Offer", duration_seconds: 3600 };
const recurring = {
  type: "recurring",
  name: "Weekly drop",
  timezone: "Europe/Berlin",
  recurrence: { rrule: "FREQ=WEEKLY;BYDAY=FR;BYHOUR=17", dtstart: "2026-11-27T17:00" },
};
const personalized = {
  type: "personalized",
  name: "Trial",
  personalization: { source: "start", offset_seconds: 86_400 },
};

function ok(body: unknown): TimerDefinition {
  const result = validateTimerCreate(body);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value;
}

function issues(body: unknown) {
  const result = validateTimerCreate(body);
  if (result.ok) throw new Error("expected issues");
  return result.issues;
}

describe("validateTimerCreate: valid bodies", () => {
  it("normalizes a fixed deadline to UTC and fills every default", () => {
    expect(ok(fixed)).toEqual({
      type: "fixed",
      name: "Launch",
      deadline_at: "2026-11-27T08:00:00.000Z",
      timezone: "Etc/UTC",
      metadata: {},
      look: DEFAULT_LOOK,
      ended: { text: "Ended" },
      allow_viewer_timezone: false,
    });
  });

  it("trims the name", () => {
    expect(ok({ ...fixed, name: "  Launch  " }).name).toBe("Launch");
  });

  it("accepts a duration timer with not_after", () => {
    const value = ok({ ...duration, not_after: "2026-12-01T00:00:00-05:00" });
    expect(value).toMatchObject({ duration_seconds: 3600, not_after: "2026-12-01T05:00:00.000Z" });
  });

  it("gives a duration timer start_on first_open unless told first_human_open", () => {
    expect(ok(duration)).toMatchObject({ start_on: "first_open" });
    expect(ok({ ...duration, start_on: "first_human_open" })).toMatchObject({
      start_on: "first_human_open",
    });
    expect(issues({ ...duration, start_on: "first_click" })[0]).toMatchObject({
      field: "start_on",
    });
    // Only evergreen timers have a recipient's start to choose.
    expect(issues({ ...fixed, start_on: "first_open" })[0]).toMatchObject({ field: "start_on" });
  });

  it("normalizes a recurring timer's wall-clock times and fills its defaults", () => {
    const value = ok({
      ...recurring,
      recurrence: { ...recurring.recurrence, exdates: ["2026-12-25T17:00"] },
    });
    expect(value).toMatchObject({
      timezone: "Europe/Berlin",
      recurrence: {
        rrule: "FREQ=WEEKLY;BYDAY=FR;BYHOUR=17",
        dtstart: "2026-11-27T17:00:00",
        exdates: ["2026-12-25T17:00:00"],
        ended_hold_seconds: 0,
      },
    });
  });

  it("fills a personalized timer's defaults", () => {
    expect(ok(personalized)).toMatchObject({
      personalization: {
        source: "start",
        offset_seconds: 86_400,
        require_signature: false,
        fallback_deadline_at: null,
        max_seconds: 31_622_400,
      },
    });
    const deadline = ok({
      ...personalized,
      personalization: { source: "deadline", fallback_deadline_at: "2026-12-01T00:00:00+01:00" },
    });
    expect(deadline).toMatchObject({
      personalization: { source: "deadline", fallback_deadline_at: "2026-11-30T23:00:00.000Z" },
    });
  });

  it.each([fixed, duration, recurring, personalized])("round-trips its own output (%o)", (body) => {
    const value = ok(body);
    expect(ok(value)).toEqual(value);
  });

  it("accepts the metadata limits exactly", () => {
    const metadata = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`${i}`.padEnd(40, "k"), "v".repeat(500)]),
    );
    expect(ok({ ...fixed, metadata }).metadata).toEqual(metadata);
  });
});

describe("validateTimerCreate: issues", () => {
  it("reports a deadline without offset as a validation_error naming the rule (spec create rule 3)", () => {
    const [first, ...rest] = issues({ ...fixed, deadline_at: "2026-11-27T09:00:00" });
    expect(rest).toEqual([]);
    expect(first).toEqual({
      code: "validation_error",
      field: "deadline_at",
      message: expect.stringContaining(
        "deadline_at must be an ISO 8601 date-time with Z or a numeric UTC offset",
      ),
    });
  });

  it.each([null, [], "timer", 42, new Date()])(
    "refuses a body that is not an object: %o",
    (body) => {
      expect(issues(body)).toEqual([
        { code: "validation_error", field: "body", message: expect.any(String) },
      ]);
    },
  );

  it("reports a missing type as missing_field type", () => {
    expect(issues({ name: "x" })[0]).toMatchObject({ code: "missing_field", field: "type" });
    expect(issues({ name: "x", type: "countdown" })[0]).toMatchObject({
      code: "validation_error",
      field: "type",
      message: expect.stringContaining("one of"),
    });
  });

  it("names each missing field", () => {
    expect(issues({ type: "fixed" })).toEqual([
      { code: "missing_field", field: "name", message: "name is required for a fixed timer" },
      {
        code: "missing_field",
        field: "deadline_at",
        message: "deadline_at is required for a fixed timer",
      },
    ]);
    expect(
      issues({ type: "recurring", name: "x", recurrence: recurring.recurrence })[0],
    ).toMatchObject({
      code: "missing_field",
      field: "timezone",
    });
    expect(issues({ ...personalized, personalization: { source: "start" } })[0]).toEqual({
      code: "missing_field",
      field: "personalization.offset_seconds",
      message: 'personalization.offset_seconds is required when personalization.source is "start"',
    });
  });

  it.each(["Asia/Calcutta", "UTC", "Europe/london", "", 5])(
    "reports timezone %o as invalid_timezone",
    (timezone) => {
      expect(issues({ ...fixed, timezone })).toEqual([
        {
          code: "invalid_timezone",
          field: "timezone",
          message: expect.stringContaining("timezone"),
          // A refused name is answered with the canonical zones it probably meant.
          ...(typeof timezone === "string" ? { suggestions: expect.any(Array) } : {}),
        },
      ]);
    },
  );

  it("suggests the right spelling of a wrongly cased zone", () => {
    expect(issues({ ...fixed, timezone: "europe/london" })[0]?.message).toContain("Europe/London");
  });

  it("refuses another type's fields and unknown fields", () => {
    expect(issues({ ...duration, deadline_at: "2026-11-27T09:00:00Z" })).toEqual([
      {
        code: "validation_error",
        field: "deadline_at",
        message: "deadline_at is not a field of a duration timer",
      },
    ]);
    expect(issues({ ...fixed, look: { colour: "#000000" } })).toEqual([
      {
        code: "validation_error",
        field: "look.colour",
        message: "look.colour is not a field of look",
      },
    ]);
    expect(
      issues({ ...personalized, personalization: { source: "deadline", offset_seconds: 60 } })[0],
    ).toMatchObject({ field: "personalization.offset_seconds", code: "validation_error" });
  });

  it("puts the most useful issue first", () => {
    // A client that sent a fixed body as a duration timer: the missing field
    // explains the unknown one, and the timezone problem comes before rule errors.
    const found = issues({
      type: "duration",
      name: "",
      deadline_at: "2026-11-27T09:00:00Z",
      timezone: "EST",
    });
    expect(found.map((issue) => [issue.code, issue.field])).toEqual([
      ["missing_field", "duration_seconds"],
      ["invalid_timezone", "timezone"],
      ["validation_error", "name"],
      ["validation_error", "deadline_at"],
    ]);
  });

  const rows: Array<[unknown, string, string]> = [
    [{ ...fixed, name: "   " }, "name", "name must not be empty"],
    [{ ...fixed, name: "x".repeat(201) }, "name", "name must be at most 200 characters long"],
    [{ ...fixed, deadline_at: "2026-02-30T10:00:00Z" }, "deadline_at", "deadline_at must be"],
    [{ ...fixed, deadline_at: 1_795_341_600_000 }, "deadline_at", "deadline_at must be a string"],
    [
      { ...duration, duration_seconds: 0 },
      "duration_seconds",
      "duration_seconds must be at least 1",
    ],
    [{ ...duration, duration_seconds: 31_622_401 }, "duration_seconds", "at most 31622400"],
    [{ ...duration, duration_seconds: 1.5 }, "duration_seconds", "must be an integer"],
    [{ ...duration, duration_seconds: "60" }, "duration_seconds", "must be an integer"],
    [{ ...duration, not_after: "tomorrow" }, "not_after", "not_after must be an ISO 8601"],
    [{ ...fixed, metadata: { "": "x" } }, "metadata", 'metadata key "" must not be empty'],
    [{ ...fixed, metadata: { ["k".repeat(41)]: "x" } }, "metadata", "at most 40 characters"],
    [{ ...fixed, metadata: { k: "v".repeat(501) } }, "metadata.k", "at most 500 characters"],
    [{ ...fixed, metadata: { k: 1 } }, "metadata.k", "metadata.k must be a string"],
    [
      { ...fixed, ...JSON.parse('{"__proto__": {}}') },
      "__proto__",
      "__proto__ is not a field of a fixed timer",
    ],
    [
      {
        ...fixed,
        metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, ""])),
      },
      "metadata",
      "metadata must have at most 20 keys",
    ],
    [{ ...fixed, look: null }, "look", "look must be an object, not null"],
    [{ ...fixed, look: { font_size: 7 } }, "look.font_size", "look.font_size must be at least 8"],
    [{ ...fixed, look: { font_size: 201 } }, "look.font_size", "at most 200"],
    [{ ...fixed, look: { text_color: "red" } }, "look.text_color", "#RRGGBB"],
    [{ ...fixed, look: { text_color: "#12345" } }, "look.text_color", "#RRGGBB"],
    [{ ...fixed, look: { font: "comic" } }, "look.font", 'one of "sans", "mono", "serif"'],
    [{ ...fixed, look: { units: [] } }, "look.units", "look.units must not be empty"],
    [{ ...fixed, look: { units: ["days", "days"] } }, "look.units", "must not repeat a unit"],
    [{ ...fixed, look: { units: ["weeks"] } }, "look.units[0]", "look.units[0] must be one of"],
    [{ ...fixed, look: { largest_unit: "seconds" } }, "look.largest_unit", "one of"],
    [
      { ...fixed, look: { units: ["days", "hours"], largest_unit: "hours" } },
      "look.units",
      "look.units must not contain days",
    ],
    [{ ...fixed, look: { separator: "----" } }, "look.separator", "at most 3 characters"],
    [{ ...fixed, look: { locale: "not a locale" } }, "look.locale", "BCP 47"],
    [{ ...fixed, look: { locale: "x".repeat(36) } }, "look.locale", "at most 35"],
    [{ ...fixed, look: { labels: { days: "x".repeat(21) } } }, "look.labels.days", "at most 20"],
    [{ ...fixed, look: { brand_color: "orange" } }, "look.brand_color", "#RRGGBB"],
    [
      { ...fixed, look: { cta: { url: "javascript:alert(1)", label: "Go" } } },
      "look.cta.url",
      "http:// or https://",
    ],
    [
      { ...fixed, look: { cta: { url: "ftp://example.com/x", label: "Go" } } },
      "look.cta.url",
      "http:// or https://",
    ],
    [
      { ...fixed, look: { cta: { url: "https://u:p@example.com/", label: "Go" } } },
      "look.cta.url",
      "without user name or password",
    ],
    [{ ...fixed, look: { cta: { url: "/sale", label: "Go" } } }, "look.cta.url", "absolute"],
    [
      { ...fixed, look: { cta: { url: "https://example.com/", label: " " } } },
      "look.cta.label",
      "must not be empty",
    ],
    [
      { ...fixed, look: { cta: { url: "https://example.com/", label: "x".repeat(41) } } },
      "look.cta.label",
      "at most 40",
    ],
    [
      { ...fixed, look: { cta: { url: "https://example.com/", label: "Go", target: "_top" } } },
      "look.cta.target",
      "not a field",
    ],
    [
      { ...fixed, look: { labels: { weeks: "w" } } },
      "look.labels.weeks",
      "not a field of look.labels",
    ],
    [
      { ...fixed, look: { dark: { matte_color: "#000000" } } },
      "look.dark.matte_color",
      "not a field",
    ],
    [{ ...fixed, ended: { text: "x".repeat(201) } }, "ended.text", "at most 200"],
    [{ ...fixed, ended: { image_url: "http://example.com/a.png" } }, "ended.image_url", "https://"],
    [
      { ...fixed, ended: { redirect_url: "https://u:p@example.com/" } },
      "ended.redirect_url",
      "https://",
    ],
    [{ ...fixed, ended: { redirect_url: "/relative" } }, "ended.redirect_url", "https://"],
    [
      { ...fixed, ended: { redirect_url: `https://example.com/${"a".repeat(2048)}` } },
      "ended.redirect_url",
      "at most 2048",
    ],
    [
      { ...recurring, recurrence: { ...recurring.recurrence, rrule: "FREQ=YEARLY" } },
      "recurrence.rrule",
      "recurrence.rrule is not a supported RRULE",
    ],
    [
      { ...recurring, recurrence: { ...recurring.recurrence, rrule: "R".repeat(501) } },
      "recurrence.rrule",
      "at most 500",
    ],
    [
      { ...recurring, recurrence: { ...recurring.recurrence, dtstart: "2026-11-27T17:00:00Z" } },
      "recurrence.dtstart",
      "without Z or offset",
    ],
    [
      {
        ...recurring,
        recurrence: { ...recurring.recurrence, exdates: ["2026-11-27", "2026-12-04T17:00"] },
      },
      "recurrence.exdates[0]",
      "recurrence.exdates[0] must be a local date-time",
    ],
    [
      {
        ...recurring,
        recurrence: { ...recurring.recurrence, exdates: Array(1001).fill("2026-12-04T17:00") },
      },
      "recurrence.exdates",
      "at most 1000 items",
    ],
    [
      { ...recurring, recurrence: { ...recurring.recurrence, ended_hold_seconds: 604_801 } },
      "recurrence.ended_hold_seconds",
      "at most 604800",
    ],
    [
      { ...personalized, personalization: { source: "later" } },
      "personalization.source",
      'one of "deadline", "start"',
    ],
    [
      { ...personalized, personalization: { source: "deadline", max_seconds: 59 } },
      "personalization.max_seconds",
      "at least 60",
    ],
    [
      { ...personalized, personalization: { source: "deadline", require_signature: "yes" } },
      "personalization.require_signature",
      "must be true or false",
    ],
    [
      {
        ...personalized,
        personalization: { source: "deadline", fallback_deadline_at: "2026-11-27" },
      },
      "personalization.fallback_deadline_at",
      "ISO 8601",
    ],
  ];
  it.each(rows.map(([body, field, message]) => ({ body, field, message })))(
    "$field: $message",
    ({ body, field, message }) => {
      const found = issues(body);
      expect(found[0]).toMatchObject({ code: "validation_error", field });
      expect(found[0]?.message).toContain(message);
    },
  );
});

describe("look", () => {
  it("fills a complete look from the theme", () => {
    const look = ok({ ...fixed, look: { theme: "dark", accent_color: "#ff0000" } }).look;
    expect(look).toMatchObject({
      theme: "dark",
      background_color: "#111827",
      matte_color: "#111827",
      accent_color: "#FF0000",
      dark: null,
    });
    expect(Object.keys(look).sort()).toEqual(Object.keys(DEFAULT_LOOK).sort());
  });

  it("derives units and largest_unit from each other", () => {
    expect(ok({ ...fixed, look: { largest_unit: "hours" } }).look).toMatchObject({
      largest_unit: "hours",
      units: ["hours", "minutes", "seconds"],
    });
    expect(ok({ ...fixed, look: { units: ["seconds", "minutes"] } }).look).toMatchObject({
      largest_unit: "minutes",
      units: ["minutes", "seconds"],
    });
  });

  it("canonicalizes the locale and fills a partial dark palette", () => {
    const look = ok({ ...fixed, look: { locale: "PT-br", dark: { text_color: "#eeeeee" } } }).look;
    expect(look.locale).toBe("pt-BR");
    expect(look.dark).toEqual({
      background_color: "#111827",
      text_color: "#EEEEEE",
      accent_color: "#60A5FA",
    });
  });

  it("has no brand colour and no call to action unless asked, and keeps both when given", () => {
    expect(DEFAULT_LOOK).toMatchObject({ brand_color: null, cta: null });
    const look = ok({
      ...fixed,
      look: { brand_color: "#ff5a1f", cta: { url: "http://shop.example.com/a?b=1", label: "Buy" } },
    }).look;
    expect(look.brand_color).toBe("#FF5A1F");
    expect(look.cta).toEqual({ url: "http://shop.example.com/a?b=1", label: "Buy" });
    expect(issues({ ...fixed, look: { cta: { url: "https://example.com/" } } })).toEqual([
      { code: "missing_field", field: "look.cta.label", message: expect.any(String) },
    ]);
  });

  it("gives looks stored before brand_color and cta existed both fields, as null", () => {
    const { brand_color: _b, cta: _c, ...old } = DEFAULT_LOOK;
    const view = timerView({
      id: "0190a0a0-0000-7000-8000-000000000000",
      account_id: "acct",
      environment: "sandbox",
      name: "Old",
      type: "fixed",
      status: "draft",
      revision: 1,
      created_at: 0,
      updated_at: 0,
      published_at: null,
      data: { definition: { ...ok(fixed), look: old }, clock: {} },
    } as unknown as Parameters<typeof timerView>[0]);
    expect(view.look).toEqual(DEFAULT_LOOK);
  });

  it("is frozen by default, so no caller can change every timer's default", () => {
    expect(Object.isFrozen(DEFAULT_LOOK)).toBe(true);
    expect(Object.isFrozen(DEFAULT_LOOK.units)).toBe(true);
    const a = ok(fixed).look;
    a.units.push("days");
    expect(ok(fixed).look.units).toEqual(["days", "hours", "minutes", "seconds"]);
  });

  const lookInput = fc.record(
    {
      theme: fc.constantFrom("light", "dark"),
      background_color: fc.stringMatching(/^#[0-9a-fA-F]{6}$/),
      font: fc.constantFrom("sans", "mono", "serif"),
      font_size: fc.integer({ min: 8, max: 200 }),
      units: fc.uniqueArray(fc.constantFrom("days", "hours", "minutes", "seconds"), {
        minLength: 1,
      }),
      pad: fc.boolean(),
      separator: fc.string({ maxLength: 3 }),
      locale: fc.constantFrom("en", "de-AT", "zh-Hant-TW", "SR-latn"),
      labels: fc.record({ days: fc.string({ maxLength: 20 }) }, { requiredKeys: [] }),
      dark: fc.option(
        fc.record({ text_color: fc.stringMatching(/^#[0-9A-F]{6}$/) }, { requiredKeys: [] }),
      ),
      brand_color: fc.option(fc.stringMatching(/^#[0-9a-fA-F]{6}$/)),
      cta: fc.option(
        fc.record({
          url: fc.webUrl({ validSchemes: ["http", "https"] }),
          label: fc.string({ minLength: 1, maxLength: 40 }).filter((l) => l.trim() !== ""),
        }),
      ),
    },
    { requiredKeys: [] },
  );

  it("turns any valid partial look into a complete one that parses back to itself", () => {
    fc.assert(
      fc.property(lookInput, (input) => {
        const look = lookSchema.parse(input);
        expect(lookSchema.parse(look)).toEqual(look);
        expect(look.units.length).toBeGreaterThan(0);
      }),
    );
  });
});

describe("ended", () => {
  it("defaults its text and keeps https URLs", () => {
    expect(endedSchema.parse({})).toEqual({ text: "Ended" });
    expect(
      ok({ ...fixed, ended: { image_url: "https://cdn.example.com/over.png" } }).ended,
    ).toEqual({
      text: "Ended",
      image_url: "https://cdn.example.com/over.png",
    });
  });
});

describe("JSON Schema", () => {
  it("converts the request and the stored shapes", () => {
    const input = z.toJSONSchema(timerCreateSchema, { io: "input" }) as { oneOf?: unknown[] };
    const output = z.toJSONSchema(timerCreateSchema, { io: "output" });
    expect(input.oneOf).toHaveLength(4);
    const text = JSON.stringify(input);
    expect(text).toContain('"additionalProperties":false');
    expect(text).toContain("Canonical IANA time zone");
    expect(JSON.stringify(output)).toContain('"required":["theme"');
  });

  it("requires a deadline for fixed timers only, in one of its two forms", () => {
    const schema = z.toJSONSchema(timerCreateSchema, { io: "input" }) as unknown as {
      oneOf: Array<{
        required: string[];
        oneOf?: unknown;
        properties: { type: { const: string } };
      }>;
    };
    const byType = Object.fromEntries(
      schema.oneOf.map((s) => [s.properties.type.const, s.required]),
    );
    expect(byType["fixed"]).toEqual(["type", "name"]);
    expect(schema.oneOf.find((s) => s.properties.type.const === "fixed")?.oneOf).toEqual([
      { required: ["deadline_at"], properties: { deadline_at: { type: "string" } } },
      {
        required: ["deadline_local", "timezone"],
        properties: { deadline_local: { type: "string" }, timezone: { type: "string" } },
      },
    ]);
    expect(byType["recurring"]).toEqual(["type", "name", "timezone", "recurrence"]);
  });
});
