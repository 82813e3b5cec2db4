import { z } from "zod";
import { type ApiError, validationError } from "../errors";
import { CURSOR_PARAMETER, LIMIT_PARAMETER } from "../paging";
import {
  ASSET_ID_ERRORS,
  DELIVERY_ID_ERRORS,
  DESTINATION_ID_ERRORS,
  type ErrorCase,
  INVALID_TIMER_ID,
  RULE_ID_ERRORS,
  TIMER_NOT_FOUND,
} from "./error-cases";

/**
 * What a path or query parameter's zod schema does not say itself: the error a failing value
 * gets, and the cases it adds to an operation's documented errors. Its description and example
 * are zod metadata (`.meta()`), as for the body schemas.
 */
export interface ParameterMeta {
  /** The error of a value that fails the schema; default: a `validation_error` with zod's message. */
  error?: (raw: string, name: string) => ApiError;
  /** What the parameter adds to the documented errors of every operation that takes it. */
  errors?: readonly ErrorCase[];
}

const parameterMeta = z.registry<ParameterMeta>();

/** Registers a parameter schema's {@link ParameterMeta}; returns the schema. */
export function parameter<T extends z.ZodType>(schema: T, meta: ParameterMeta): T {
  parameterMeta.add(schema, meta);
  return schema;
}

/** The meta of a parameter schema, looking through `.optional()` and `.default()`. */
export function parameterMetaOf(schema: z.ZodType): ParameterMeta | undefined {
  let at: z.ZodType | undefined = schema;
  while (at) {
    const meta = parameterMeta.get(at);
    if (meta) return meta;
    at = (at._zod.def as { innerType?: z.ZodType }).innerType;
  }
  return undefined;
}

/** A parameter whose every failure is one `validation_error` naming it, told by `message`. */
export function toldAs<T extends z.ZodType>(
  schema: T,
  message: (name: string, raw: string) => string,
): T {
  return parameter(schema, { error: (raw, name) => validationError(name, message(name, raw)) });
}

/** A parameter that takes one of `values` ("`name` must be one of a, b, c" otherwise). */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return toldAs(z.enum(values), (name) => `${name} must be one of ${values.join(", ")}`);
}

// Ids are UUIDs of any version, in either case; the store keeps them lowercase.
const uuid = () => z.guid().toLowerCase();

/** `{timer_id}`: not a UUID is `invalid_timer_id` (the specification's code for it). */
export const TIMER_ID = parameter(
  uuid().meta({
    description: "The timer's id. A value that is not a UUID is `400 invalid_timer_id`.",
  }),
  { error: (raw) => INVALID_TIMER_ID.error(raw), errors: [INVALID_TIMER_ID, TIMER_NOT_FOUND] },
);

// Every other id that is not a UUID is a `validation_error` naming it.
function webhookId(name: string, resource: string, errors: typeof DESTINATION_ID_ERRORS) {
  return parameter(
    uuid().meta({
      description: `The ${resource}'s id. A value that is not a UUID is \`400 validation_error\` naming \`${name}\`.`,
    }),
    { error: (raw) => errors.invalid.error(raw), errors: [errors.invalid, errors.notFound] },
  );
}

/** `{destination_id}`, `{rule_id}` and `{delivery_id}` of the webhook routes. */
export const DESTINATION_ID = webhookId(
  "destination_id",
  "webhook destination",
  DESTINATION_ID_ERRORS,
);
export const RULE_ID = webhookId("rule_id", "webhook rule", RULE_ID_ERRORS);
export const DELIVERY_ID = webhookId("delivery_id", "webhook delivery", DELIVERY_ID_ERRORS);
/** `{asset_id}` of the upload routes. */
export const ASSET_ID = webhookId("asset_id", "uploaded file", ASSET_ID_ERRORS);

/** The path parameters of a route under `/timers/{timer_id}`. */
export const timerPath = z.object({ timer_id: TIMER_ID });

// `limit` and `cursor` are read by readListQuery (paging.ts); lists document this case.
parameter(LIMIT_PARAMETER, { errors: [{ code: "validation_error" }] });

/**
 * The query of a list endpoint: `limit`, `cursor` and the list's own filters. Parameters it
 * does not name, and repeated ones, are rejected (a typo in a filter must not widen the list).
 */
export function listQuery<S extends z.ZodRawShape>(filters: S) {
  return z.object({ limit: LIMIT_PARAMETER, cursor: CURSOR_PARAMETER.optional(), ...filters });
}

/** The query of a list without filters. */
export const PAGE_QUERY = listQuery({});
/** What {@link PAGE_QUERY} parses into. */
export type PageQuery = z.output<typeof PAGE_QUERY>;

/** Whether a query schema is a list's (made by {@link listQuery}). */
export function isListQuery(schema: z.ZodObject): boolean {
  return schema.shape.limit === LIMIT_PARAMETER;
}
