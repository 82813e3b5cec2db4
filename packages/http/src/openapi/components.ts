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
} from "./schemas";
import { WEBHOOK_REQUEST_SCHEMAS, WEBHOOK_RESPONSE_SCHEMAS } from "./webhook-schemas";

/** A JSON Schema (draft 2020-12) object as it appears in the document. */
export type JsonSchema = Record<string, unknown>;

/** `$ref` to a component schema. */
export const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * Request bodies, converted with `io: "input"`: exactly what the validators accept (defaults
 * optional). Nested schemas of core are named so each appears once in the document.
 */
const REQUEST_SCHEMAS = {
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
} satisfies Record<string, z.ZodType>;

/** Response shapes, converted with `io: "output"`: what the service sends (defaults filled). */
const RESPONSE_SCHEMAS = {
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
} satisfies Record<string, z.ZodType>;

/** Names of the response components, for operations to reference. */
export type ResponseSchemaName = keyof typeof RESPONSE_SCHEMAS;
/** Names of the request components. */
export type RequestSchemaName = keyof typeof REQUEST_SCHEMAS;

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
    result[id] = rest;
  }
  return result;
}

/** Every schema component, generated from the zod schemas (request and response sides). */
export function schemaComponents(): Record<string, JsonSchema> {
  const input = convert(REQUEST_SCHEMAS, "input");
  const output = convert(RESPONSE_SCHEMAS, "output");
  for (const name of Object.keys(input)) {
    if (name in output) throw new Error(`schema component ${name} is defined twice`);
  }
  return sortKeys({ ...input, ...output });
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : 1)));
}
