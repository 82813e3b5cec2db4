import {
  endedSchema,
  lookSchema,
  personalizationSchema,
  recurrenceSchema,
  TIMER_TYPES,
  timerCreateSchema,
  timerPatchSchemas,
} from "@tminus/core";
import { z } from "zod";
import { ANALYTICS_RESPONSE_SCHEMAS } from "./analytics";
import { ASSET_REQUEST_SCHEMAS, ASSET_RESPONSE_SCHEMAS } from "./assets";
import { describeDefaults } from "./input-defaults";
import {
  activityEntrySchema,
  dataEnvelope,
  deletedTimerSchema,
  duplicateRequestSchema,
  errorEnvelopeSchema,
  errorSchema,
  extendRequestSchema,
  listEnvelope,
  pageSchema,
  requestLogEntrySchema,
  timerSchema,
  timerStatusSchema,
  timeZoneSchema,
  usageSchema,
} from "./responses";
import { WEBHOOK_REQUEST_SCHEMAS } from "./webhook-requests";
import { WEBHOOK_RESPONSE_SCHEMAS } from "./webhook-responses";

/** A JSON Schema (draft 2020-12) object as it appears in the document. */
export type JsonSchema = Record<string, unknown>;

/** `$ref` to a component schema. */
export const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * Request bodies, converted with `io: "input"`: exactly what the validators accept (defaulted
 * fields optional, their defaults told in the description, see `describeDefaults`). Nested
 * schemas of core are named so each appears once in the document, apart from the response
 * side's (`LookInput` here, `Look` there): request bodies reference only these components.
 */
export const requestSchemas = {
  TimerCreate: timerCreateSchema,
  // The PATCH body is checked against the timer's own type; anyOf lists all four.
  TimerPatch: z
    .union(TIMER_TYPES.map((type) => timerPatchSchemas[type]))
    .meta({ description: "The fields to replace; the schema of the timer's type applies." }),
  LookInput: lookSchema,
  EndedInput: endedSchema,
  RecurrenceInput: recurrenceSchema,
  PersonalizationInput: personalizationSchema,
  DuplicateRequest: duplicateRequestSchema,
  ExtendRequest: extendRequestSchema,
  ...WEBHOOK_REQUEST_SCHEMAS,
  ...ASSET_REQUEST_SCHEMAS,
} satisfies Record<string, z.ZodType>;

/** Response shapes, converted with `io: "output"`: what the service sends (defaults filled). */
export const responseSchemas = {
  Timer: timerSchema,
  Look: lookSchema,
  Ended: endedSchema,
  Recurrence: recurrenceSchema,
  Personalization: personalizationSchema,
  TimerStatus: timerStatusSchema,
  Usage: usageSchema,
  TimeZone: timeZoneSchema,
  RequestLogEntry: requestLogEntrySchema,
  ActivityEntry: activityEntrySchema,
  Page: pageSchema,
  Error: errorSchema,
  ErrorResponse: errorEnvelopeSchema,
  TimerResponse: dataEnvelope(timerSchema),
  TimerList: listEnvelope(timerSchema),
  DeletedTimerResponse: dataEnvelope(deletedTimerSchema),
  TimerStatusResponse: dataEnvelope(timerStatusSchema),
  UsageResponse: dataEnvelope(usageSchema),
  TimeZoneList: listEnvelope(timeZoneSchema),
  RequestLogList: listEnvelope(requestLogEntrySchema),
  ActivityList: listEnvelope(activityEntrySchema),
  ...WEBHOOK_RESPONSE_SCHEMAS,
  ...ANALYTICS_RESPONSE_SCHEMAS,
  ...ASSET_RESPONSE_SCHEMAS,
} satisfies Record<string, z.ZodType>;

/** Names of the response components, for operations to reference. */
export type ResponseSchemaName = keyof typeof responseSchemas;
/** Names of the request components. */
export type RequestSchemaName = keyof typeof requestSchemas;

/**
 * Tidies zod's output for readers: drops the regexes zod adds beside `format` (the format
 * says it; validators check formats) and the ±2^53 bounds of `z.int()`.
 */
function tidy(ctx: { jsonSchema: JsonSchema }): void {
  const s = ctx.jsonSchema;
  if (typeof s.format === "string" && typeof s.pattern === "string") delete s.pattern;
  if (s.maximum === Number.MAX_SAFE_INTEGER) delete s.maximum;
  if (s.minimum === Number.MIN_SAFE_INTEGER) delete s.minimum;
}

function convert(schemas: Record<string, z.ZodType>, io: "input" | "output") {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const { schemas: out } = z.toJSONSchema(registry, {
    target: "draft-2020-12",
    io,
    uri: (id) => `#/components/schemas/${id}`,
    override: tidy as never,
  });
  const result: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(out)) {
    // Each schema is a component, not a standalone document: no $schema, and no $id (a
    // fragment-only $id is not allowed in 2020-12).
    const { $schema: _s, $id: _i, ...rest } = schema as JsonSchema;
    result[id] = io === "input" ? describeDefaults(rest) : rest;
  }
  return result;
}

/** Every schema component, generated from the zod schemas (request and response sides). */
export function schemaComponents(): Record<string, JsonSchema> {
  const input = convert(requestSchemas, "input");
  const output = convert(responseSchemas, "output");
  for (const name of Object.keys(input)) {
    if (name in output) throw new Error(`schema component ${name} is defined twice`);
  }
  return sortKeys({ ...input, ...output });
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : 1)));
}

const NAMES = new Map<z.ZodType, string>(
  [...Object.entries(requestSchemas), ...Object.entries(responseSchemas)].map(
    ([name, schema]) => [schema as z.ZodType, name] as const,
  ),
);

/**
 * `$ref` to the component of a registered schema. A route that names a schema missing from
 * the registry fails here, when the document is built (and so in the tests).
 */
export function schemaRefOf(schema: z.ZodType): { $ref: string } {
  const name = NAMES.get(schema);
  if (!name) throw new Error("a route names a schema that is not in the schema registry");
  return schemaRef(name);
}

/** The component name of a registered schema (for examples keyed by it). */
export function schemaNameOf(schema: z.ZodType): string | undefined {
  return NAMES.get(schema);
}
