// The fields every timer type takes, written once. The create schemas (timer.ts), the PATCH
// schemas (patch.ts), the create fast path's key sets (fast-create.ts) and the timer object
// (resource/timer-view.ts) are all derived from COMMON_FIELDS, so a new common field is one
// entry here (CONTRIBUTING.md, "How to add a timer field"). The order of the entries is the
// order of the properties in the schemas, the stored definition and the OpenAPI document.
import { z } from "zod";
import { DEFAULT_TIMEZONE } from "./constants";
import { endedSchema } from "./ended";
import { timeZone } from "./fields";
import { currentLook, type Look, lookSchema } from "./look";

/** Display name, trimmed; 1..200 characters. */
export function nameField() {
  return z
    .string()
    .trim()
    .min(1)
    .max(200)
    .meta({ description: "Name shown in lists; never rendered.", examples: ["Black Friday"] });
}

/** Free-form string pairs for the client's own bookkeeping (at most 20). */
export function metadataField() {
  return (
    z
      // zod skips a "__proto__" key rather than copy it, so it never reaches a definition.
      .record(z.string().min(1).max(40), z.string().max(500))
      .refine((record) => Object.keys(record).length <= 20, "must have at most 20 keys")
      .meta({
        description: "Up to 20 keys of 1..40 characters with values of up to 500 characters.",
        examples: [{ campaign: "bf-2026" }],
      })
  );
}

/** One common field: its schema in a create body and in a PATCH body, and how it is shown. */
export interface CommonField<Create extends z.ZodType, Patch extends z.ZodType> {
  /** The field of POST /timers: required, or with what a body that leaves it out gets. */
  create: () => Create;
  /** The field of PATCH /timers/{id}: optional, and nullable when null can reset it. */
  patch: () => Patch;
  /** The stored value as the timer object shows it (default: as stored). */
  show?: (stored: never) => unknown;
}

/** A field every create sends; a PATCH may leave it out but never clear it. */
function required<S extends z.ZodType>(schema: () => S): CommonField<S, z.ZodOptional<S>> {
  return { create: schema, patch: () => schema().optional() };
}

/** A field a create may leave out (then `value`); a PATCH resets it with null. */
function defaulted<S extends z.ZodType>(
  schema: () => S,
  value: z.output<S> | (() => z.output<S>),
): CommonField<z.ZodDefault<S>, z.ZodOptional<z.ZodNullable<S>>> {
  return {
    create: () => schema().default(value as never),
    patch: () => schema().nullable().optional(),
  };
}

/**
 * Like {@link defaulted}, but what a create that leaves the field out gets is `input` parsed
 * by the schema (the defaults of a nested object, resolved as if sent).
 */
function prefaulted<S extends z.ZodType>(
  schema: () => S,
  input: z.input<S>,
): CommonField<z.ZodPrefault<S>, z.ZodOptional<z.ZodNullable<S>>> {
  return {
    create: () => schema().prefault(input as never),
    patch: () => schema().nullable().optional(),
  };
}

/** The fields every timer type takes, besides its `type`: one entry per field. */
export const COMMON_FIELDS = {
  name: required(nameField),
  timezone: defaulted(timeZone, DEFAULT_TIMEZONE),
  metadata: defaulted(metadataField, () => ({})),
  look: {
    ...prefaulted(() => lookSchema, {}),
    // Looks stored before a look field existed are shown with it.
    show: (stored: Look) => currentLook(stored),
  },
  ended: prefaulted(() => endedSchema, {}),
};

type Table = typeof COMMON_FIELDS;

/** The name of a common field. */
export type CommonFieldName = keyof Table;

/** The common fields' names, in the schemas' order. */
export const COMMON_FIELD_NAMES = Object.keys(COMMON_FIELDS) as CommonFieldName[];

/** The common fields of a create schema (timer.ts spreads it into each type's object). */
export function commonCreateShape(): { [K in CommonFieldName]: ReturnType<Table[K]["create"]> } {
  return Object.fromEntries(COMMON_FIELD_NAMES.map((k) => [k, COMMON_FIELDS[k].create()])) as never;
}

/** The common fields of a PATCH schema (patch.ts adds `type` and each type's own fields). */
export function commonPatchShape(): { [K in CommonFieldName]: ReturnType<Table[K]["patch"]> } {
  return Object.fromEntries(COMMON_FIELD_NAMES.map((k) => [k, COMMON_FIELDS[k].patch()])) as never;
}

/**
 * The common fields of a stored definition as the timer object shows them, in the schemas'
 * order. A definition stored before a field existed shows the field's default.
 */
export function shownCommonFields(definition: object): Record<CommonFieldName, unknown> {
  const stored = definition as Record<string, unknown>;
  const shown = {} as Record<CommonFieldName, unknown>;
  for (const key of COMMON_FIELD_NAMES) {
    const field: CommonField<z.ZodType, z.ZodType> = COMMON_FIELDS[key];
    let value = stored[key];
    if (value === undefined) {
      const parsed = field.create().safeParse(undefined);
      value = parsed.success ? parsed.data : undefined;
    } else if (field.show) value = field.show(value as never);
    shown[key] = value;
  }
  return shown;
}
