// The issues a request body gets, word for word: each names the field and the rule it broke
// (schema/issues.ts), the most useful first. The zod schemas below stand in for any field
// schema, so every branch of the mapping is pinned, not only the ones today's timers reach.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  applyTimerPatch,
  currentLook,
  DEFAULT_LOOK,
  fixedDeadlineIssues,
  isPlainObject,
  lookInputSchema,
  type TimerDefinition,
  timerSchemas,
  toValidationIssues,
  validateTimerCreate,
  validateTimerPatch,
} from "../src/index";

const fixed = { type: "fixed", name: "Launch", deadline_at: "2026-11-27T09:00:00+01:00" };
const duration = { type: "duration", name: "Offer", duration_seconds: 3600 };
const recurring = {
  type: "recurring",
  name: "Drop",
  timezone: "Europe/Berlin",
  recurrence: { rrule: "FREQ=DAILY", dtstart: "2026-11-22T09:00" },
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
const v = (field: string, message: string) => ({
  code: "validation_error" as const,
  field,
  message,
});
const missing = (field: string, message: string) => ({
  code: "missing_field" as const,
  field,
  message,
});

/** The API issues of `input` against a zod schema, as the timer validators produce them. */
function mapped(schema: z.ZodType, input: unknown, context = {}) {
  const parsed = schema.safeParse(input, { reportInput: true });
  if (parsed.success) throw new Error("expected issues");
  return toValidationIssues(parsed.error.issues, context);
}

describe("instants and wall-clock times", () => {
  it("says what an instant must look like, and that it must lie in years 0000..9999 UTC", () => {
    expect(issues({ ...duration, not_after: "tomorrow" })).toEqual([
      v(
        "not_after",
        "not_after must be an ISO 8601 date-time with Z or a numeric UTC offset, like 2026-11-22T10:00:00Z",
      ),
    ]);
    const range = [v("not_after", "not_after must lie between the years 0000 and 9999 in UTC")];
    expect(issues({ ...duration, not_after: "0000-01-01T00:00:00+01:00" })).toEqual(range);
    expect(issues({ ...duration, not_after: "9999-12-31T23:59:59-01:00" })).toEqual(range);
  });

  it("normalizes the first and the last millisecond of the range given with an offset", () => {
    // The schema itself: validateTimerCreate's fast path normalizes such bodies on its own.
    const notAfter = (text: string) =>
      timerSchemas.duration.parse({ ...duration, not_after: text }).not_after;
    expect(notAfter("0000-01-01T01:00:00+01:00")).toBe("0000-01-01T00:00:00.000Z");
    expect(notAfter("9999-12-31T22:59:59.999-01:00")).toBe("9999-12-31T23:59:59.999Z");
  });

  it("accepts the first and the last millisecond of the range", () => {
    expect(ok({ ...duration, not_after: "0000-01-01T00:00:00Z" })).toMatchObject({
      not_after: "0000-01-01T00:00:00.000Z",
    });
    expect(ok({ ...duration, not_after: "9999-12-31T23:59:59.999Z" })).toMatchObject({
      not_after: "9999-12-31T23:59:59.999Z",
    });
  });

  it("explains a wall-clock time sent with an offset differently from one that is no time", () => {
    const dtstart = (text: string) =>
      issues({ ...recurring, recurrence: { rrule: "FREQ=DAILY", dtstart: text } });
    expect(dtstart("garbage")).toEqual([
      v(
        "recurrence.dtstart",
        "recurrence.dtstart must be a local date-time YYYY-MM-DDTHH:mm[:ss], like 2026-11-22T09:00",
      ),
    ]);
    expect(dtstart("2026-11-22T09:00:00Z")).toEqual([
      v(
        "recurrence.dtstart",
        "recurrence.dtstart must be a local date-time without Z or offset (it is read in the timer's timezone), like 2026-11-22T09:00",
      ),
    ]);
  });

  it("quotes the RRULE parser's reason once, without repeating the rule", () => {
    expect(
      issues({ ...recurring, recurrence: { rrule: "FREQ=YEARLY", dtstart: "2026-11-22T09:00" } }),
    ).toEqual([
      v(
        "recurrence.rrule",
        'recurrence.rrule is not a supported RRULE: part "FREQ=YEARLY": FREQ must be DAILY, WEEKLY or MONTHLY (for yearly, use FREQ=MONTHLY;INTERVAL=12).',
      ),
    ]);
  });

  it("suggests the canonical spelling of a wrongly cased zone", () => {
    expect(issues({ ...fixed, timezone: "america/new_york" })).toEqual([
      {
        code: "invalid_timezone",
        field: "timezone",
        message:
          "timezone must be a canonical IANA time zone like Europe/Berlin (see GET /timezones); did you mean America/New_York?",
        suggestions: ["America/New_York"],
      },
    ]);
  });

  it("gives an unknown zone the plain rule, with no suggestion", () => {
    expect(issues({ ...fixed, timezone: "Mars/Olympus_Mons" })).toEqual([
      {
        code: "invalid_timezone",
        field: "timezone",
        message:
          "timezone must be a canonical IANA time zone like Europe/Berlin (see GET /timezones)",
        suggestions: [],
      },
    ]);
  });

  it("suggests the zone of a city, an abbreviation (saying why) and an old name", () => {
    const first = (timezone: string) => issues({ ...fixed, timezone })[0]!;
    expect(first("New York")).toMatchObject({ suggestions: ["America/New_York"] });
    const est = first("EST");
    expect(est.suggestions).toEqual(["America/New_York"]);
    expect(est.message).toContain(
      "did you mean America/New_York? EST (Eastern Standard Time) is an abbreviation, not a zone",
    );
    expect(first("US/Eastern").suggestions).toEqual(["America/New_York"]);
    expect(first("+01:00").suggestions).toEqual([]);
    expect(first("+01:00").message).toContain("a UTC offset is not a zone");
  });
});

describe("a fixed deadline given as wall-clock time", () => {
  const local = { type: "fixed", name: "x", deadline_local: "2026-01-01T00:00" };

  it("needs a zone, also when the zone is null", () => {
    const needZone = [
      missing(
        "timezone",
        "timezone is required with deadline_local (the zone its wall-clock time is in)",
      ),
    ];
    expect(fixedDeadlineIssues({ deadline_local: "2026-01-01T00:00", timezone: null })).toEqual(
      needZone,
    );
    expect(fixedDeadlineIssues({ deadline_local: "2026-01-01T00:00" })).toEqual(needZone);
  });

  it("leaves malformed values to the field's own issue", () => {
    expect(issues({ ...local, deadline_local: 5, timezone: "Etc/UTC" })).toEqual([
      v("deadline_local", "deadline_local must be a string"),
    ]);
    expect(issues({ ...local, timezone: 5 })).toEqual([
      { code: "invalid_timezone", field: "timezone", message: "timezone must be a string" },
    ]);
    expect(fixedDeadlineIssues({ deadline_local: 5, timezone: "Etc/UTC" })).toEqual([]);
    expect(fixedDeadlineIssues({ deadline_local: "2026-01-01T00:00", timezone: 5 })).toEqual([]);
    // An array reads as its one element where text is expected; still not a wall-clock time,
    // even one that would resolve out of range.
    expect(
      fixedDeadlineIssues({ deadline_local: ["0000-01-01T00:00"], timezone: "Asia/Tokyo" }),
    ).toEqual([]);
  });

  it("must resolve within years 0000..9999 UTC: the first instant is in, an earlier one out", () => {
    expect(ok({ ...local, deadline_local: "0000-01-01T00:00", timezone: "Etc/UTC" })).toMatchObject(
      {
        deadline_local: "0000-01-01T00:00:00",
      },
    );
    expect(
      issues({ ...local, deadline_local: "0000-01-01T00:00", timezone: "Europe/Berlin" }),
    ).toEqual([
      v(
        "deadline_local",
        "deadline_local must lie between the years 0000 and 9999 in UTC once resolved",
      ),
    ]);
  });

  it("reports a field once, even when it breaks a rule of its own and one across fields", () => {
    expect(issues({ ...fixed, deadline_local: "garbage" })).toEqual([
      v(
        "deadline_local",
        "deadline_local must be a local date-time YYYY-MM-DDTHH:mm[:ss], like 2026-11-22T09:00",
      ),
    ]);
  });
});

describe("timer bodies", () => {
  it("lists the types when the type is missing, and names the field of a wrong one", () => {
    expect(issues({ name: "x" })).toEqual([
      missing("type", 'type is required (one of "fixed", "duration", "recurring", "personalized")'),
    ]);
    expect(issues({ type: "personalized", name: "x", personalization: {} })).toEqual([
      missing(
        "personalization.source",
        'personalization.source is required (one of "deadline", "start")',
      ),
    ]);
    expect(issues({ ...recurring, recurrence: { dtstart: "2026-11-22T09:00" } })).toEqual([
      missing("recurrence.rrule", "recurrence.rrule is required"),
    ]);
  });

  it("says 'not null' only for null", () => {
    expect(issues({ ...fixed, name: 5 })).toEqual([v("name", "name must be a string")]);
    expect(issues({ ...fixed, name: null })).toEqual([
      v("name", "name must be a string, not null"),
    ]);
    expect(issues({ type: "personalized", name: "x", personalization: null })).toEqual([
      v("personalization", "personalization must be an object, not null"),
    ]);
    expect(issues({ type: "personalized", name: "x", personalization: 5 })).toEqual([
      v("personalization", "personalization must be an object"),
    ]);
  });

  it("names a bad metadata key on the metadata field", () => {
    expect(issues({ ...fixed, metadata: { "": "v" } })).toEqual([
      v("metadata", 'metadata key "" must not be empty'),
    ]);
    expect(issues({ ...fixed, metadata: { ["k".repeat(41)]: "v" } })).toEqual([
      v("metadata", `metadata key "${"k".repeat(41)}" must be at most 40 characters long`),
    ]);
  });

  it("says where a key of another branch belongs", () => {
    expect(
      issues({
        type: "personalized",
        name: "x",
        personalization: { source: "deadline", offset_seconds: 60 },
      }),
    ).toEqual([
      v(
        "personalization.offset_seconds",
        'personalization.offset_seconds is only allowed when personalization.source is "start"',
      ),
    ]);
  });

  it("puts an unknown key after a bad value, whatever the schema order", () => {
    expect(issues({ ...fixed, look: { colour: "#000000" }, ended: { text: 5 } })).toEqual([
      v("ended.text", "ended.text must be a string"),
      v("look.colour", "look.colour is not a field of look"),
    ]);
  });

  it("refuses a body that is not a JSON object, in those words", () => {
    const body = [v("body", "the body must be a JSON object")];
    expect(issues([])).toEqual(body);
    expect(validateTimerPatch("fixed", null)).toEqual({ ok: false, issues: body });
  });
});

describe("toValidationIssues: every zod issue in the API's words", () => {
  it("bounds of strings, arrays and numbers, inclusive or not", () => {
    const schema = z.object({
      s: z.string().min(3),
      e: z.string().min(1),
      a: z.array(z.number()).min(2),
      b: z.array(z.number()).min(1),
      c: z.array(z.number()).max(1),
      t: z.string().max(2),
      n: z.number().max(5),
      k: z.number().min(3),
      g: z.number().gt(0),
      l: z.number().lt(10),
      m: z.number().multipleOf(5),
    });
    expect(
      mapped(schema, {
        s: "ab",
        e: "",
        a: [1],
        b: [],
        c: [1, 2],
        t: "abc",
        n: 6,
        k: 2,
        g: 0,
        l: 10,
        m: 3,
      }),
    ).toEqual([
      v("s", "s must be at least 3 characters long"),
      v("e", "e must not be empty"),
      v("a", "a must have at least 2 items"),
      v("b", "b must not be empty"),
      v("c", "c must have at most 1 items"),
      v("t", "t must be at most 2 characters long"),
      v("n", "n must be at most 5"),
      v("k", "k must be at least 3"),
      v("g", "g must be greater than 0"),
      v("l", "l must be less than 10"),
      v("m", "m must be a multiple of 5"),
    ]);
  });

  it("expected types", () => {
    const schema = z.object({
      b: z.boolean(),
      o: z.object({}),
      r: z.record(z.string(), z.string()),
      a: z.array(z.string()),
      s: z.string(),
      n: z.number(),
      d: z.date(),
    });
    expect(mapped(schema, { b: "x", o: 1, r: 1, a: 1, s: 1, n: "1", d: 1 })).toEqual([
      v("b", "b must be true or false"),
      v("o", "o must be an object"),
      v("r", "r must be an object"),
      v("a", "a must be an array"),
      v("s", "s must be a string"),
      v("n", "n must be a number"),
      v("d", "d must be of type date"),
    ]);
  });

  it("integers, and a record key's issue on the record, however deep", () => {
    expect(mapped(z.object({ i: z.int() }), { i: 1.5 })).toEqual([v("i", "i must be an integer")]);
    const deep = z.object({ o: z.object({ r: z.record(z.string().max(2), z.string()) }) });
    expect(mapped(deep, { o: { r: { abc: "x" } } })).toEqual([
      v("o.r", 'o.r key "abc" must be at most 2 characters long'),
    ]);
  });

  it("unions, single values, zod's own wording, missing and unknown fields", () => {
    expect(mapped(z.object({ u: z.union([z.string(), z.number()]) }), { u: true })).toEqual([
      v("u", "u does not match any allowed form"),
    ]);
    expect(mapped(z.object({ e: z.enum(["only"]) }), { e: "x" })).toEqual([
      v("e", 'e must be "only"'),
    ]);
    expect(
      mapped(z.object({ c: z.string().refine(() => false, { message: "Capitalized" }) }), {
        c: "x",
      }),
    ).toEqual([v("c", "c is invalid")]);
    expect(mapped(z.object({ a: z.string() }), {})).toEqual([missing("a", "a is required")]);
    expect(mapped(z.strictObject({}), { bogus: 1 })).toEqual([
      v("bogus", "bogus is not a known field"),
    ]);
    expect(mapped(z.strictObject({}), { bogus: 1 }, { type: "fixed" })).toEqual([
      v("bogus", "bogus is not a field of a fixed timer"),
    ]);
    expect(mapped(z.object({ a: z.string() }), 5)).toEqual([
      v("body", "the body must be a JSON object"),
    ]);
  });

  it("ranks the body first, then missing fields, zones, values and unknown keys", () => {
    const parsed = z
      .strictObject({ a: z.string(), timezone: z.string(), n: z.number() })
      .safeParse({ timezone: 1, n: "x", extra: 1 }, { reportInput: true });
    if (parsed.success) throw new Error("expected issues");
    const body = v("body", "the body must be a JSON object");
    expect(toValidationIssues(parsed.error.issues, {}, [body]).map((i) => i.field)).toEqual([
      "body",
      "a",
      "timezone",
      "n",
      "extra",
    ]);
  });
});

describe("looks", () => {
  it("counts seconds-only countdowns in minutes at most", () => {
    expect(ok({ ...fixed, look: { units: ["seconds"] } }).look).toMatchObject({
      units: ["seconds"],
      largest_unit: "minutes",
    });
  });

  it("fills brand_color and cta of a stored look that lacks either, and keeps a current one", () => {
    const { brand_color: _b, cta: _c, ...old } = DEFAULT_LOOK;
    expect(currentLook(DEFAULT_LOOK)).toBe(DEFAULT_LOOK);
    expect(currentLook(old as typeof DEFAULT_LOOK)).toStrictEqual({ ...DEFAULT_LOOK });
    const { cta: _, ...noCta } = { ...DEFAULT_LOOK, brand_color: "#FF0000" };
    expect(currentLook(noCta as typeof DEFAULT_LOOK)).toStrictEqual({
      ...DEFAULT_LOOK,
      brand_color: "#FF0000",
    });
    const { brand_color: __, ...noBrand } = {
      ...DEFAULT_LOOK,
      cta: { url: "https://a.example/", label: "Go" },
    };
    expect(currentLook(noBrand as typeof DEFAULT_LOOK)).toStrictEqual({
      ...DEFAULT_LOOK,
      cta: { url: "https://a.example/", label: "Go" },
    });
  });

  it("fills each click URL of a stored look that lacks it, keeping the other", () => {
    const { click_url: _a, not_started_click_url: _b, ...old } = DEFAULT_LOOK;
    expect(currentLook(old as typeof DEFAULT_LOOK)).toStrictEqual({ ...DEFAULT_LOOK });
    for (const field of ["click_url", "not_started_click_url"] as const) {
      const other = field === "click_url" ? "not_started_click_url" : "click_url";
      const { [field]: _, ...lacking } = { ...DEFAULT_LOOK, [other]: "https://a.example/x" };
      expect(currentLook(lacking as typeof DEFAULT_LOOK)).toStrictEqual({
        ...DEFAULT_LOOK,
        [other]: "https://a.example/x",
      });
    }
  });

  it("stores click URLs as the URL parser writes them, and null when not given", () => {
    const look = ok({
      ...fixed,
      look: { click_url: "https://Bücher.example/ä b", not_started_click_url: "https://a.example" },
      ended: { click_url: "https://a.example/x\ny" },
    });
    expect(look.look.click_url).toBe("https://xn--bcher-kva.example/%C3%A4%20b");
    expect(look.look.not_started_click_url).toBe("https://a.example/");
    expect(look.ended.click_url).toBe("https://a.example/xy");
    const plain = ok(fixed);
    expect(plain.look.click_url).toBeNull();
    expect(plain.look.not_started_click_url).toBeNull();
    expect(plain.ended.click_url).toBeUndefined();
  });

  it("refuses click URLs that are not https, naming the field", () => {
    for (const [body, field] of [
      [{ look: { click_url: "http://a.example/" } }, "look.click_url"],
      [{ look: { not_started_click_url: "mailto:a@example.com" } }, "look.not_started_click_url"],
      [{ ended: { click_url: "not a url" } }, "ended.click_url"],
    ] as const) {
      const result = validateTimerCreate({ ...fixed, ...body });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.issues.map((i) => i.field)).toEqual([field]);
    }
  });
});

describe("patches and plain objects", () => {
  it("reports a wrong type in a patch as a bad value, not a missing field", () => {
    expect(validateTimerPatch("fixed", { name: 5 })).toEqual({
      ok: false,
      issues: [v("name", "name must be a string")],
    });
  });

  it("treats a field patched to undefined as not sent", () => {
    const current = ok(fixed);
    const result = applyTimerPatch(current, { name: undefined } as never);
    expect(result).toEqual({ ok: true, value: current });
  });

  it("refuses a class instance as a patch body, though zod would read it as an empty patch", () => {
    const notAnObject = {
      ok: false,
      issues: [v("body", "the body must be a JSON object")],
    };
    expect(validateTimerPatch("fixed", new Date(0))).toEqual(notAnObject);
    expect(validateTimerPatch("duration", new Map())).toEqual(notAnObject);
  });

  it("knows plain objects from class instances", () => {
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject(Object.create(null))).toBe(true);
    expect(isPlainObject(new Date())).toBe(false);
    expect(isPlainObject(new Map())).toBe(false);
    expect(isPlainObject([])).toBe(false);
    expect(isPlainObject(null)).toBe(false);
    expect(isPlainObject(undefined)).toBe(false);
    expect(isPlainObject("x")).toBe(false);
  });
});

describe("zod issues as the schemas raise them", () => {
  it("words a missing discriminator also from issues parsed without reportInput", () => {
    const kind = z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("a") }),
      z.object({ kind: z.literal("b") }),
    ]);
    const parsed = kind.safeParse({});
    if (parsed.success) throw new Error("expected issues");
    expect(toValidationIssues(parsed.error.issues)).toEqual([
      missing("kind", 'kind is required (one of "a", "b")'),
    ]);
  });

  it("raises the look's own rules as custom issues on the field they are about", () => {
    const issuesOf = (look: unknown) => {
      const parsed = lookInputSchema.safeParse(look);
      if (parsed.success) throw new Error("expected issues");
      return parsed.error.issues;
    };
    expect(issuesOf({ units: ["days", "seconds"], largest_unit: "hours" })).toEqual([
      expect.objectContaining({
        code: "custom",
        path: ["units"],
        message: "must not contain days, a larger unit than largest_unit (hours)",
      }),
    ]);
    const gradient = { type: "gradient", from: "#000000", to: "#FFFFFF" };
    // Either alone is fine.
    expect(lookInputSchema.safeParse({ transparent: false, background: gradient }).success).toBe(
      true,
    );
    expect(lookInputSchema.safeParse({ transparent: true, background: null }).success).toBe(true);
    expect(issuesOf({ transparent: true, background: gradient })).toEqual([
      expect.objectContaining({
        code: "custom",
        path: ["background"],
        message: "must be null when transparent is true (a transparent look draws no background)",
      }),
    ]);
  });
});
