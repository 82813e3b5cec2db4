import type { z } from "zod";
import { validationError } from "../errors";
import { readListQuery } from "../paging";
import { isListQuery, parameterMetaOf } from "../vocabulary/parameters";
import type { AnyApiRoute } from "./define";

/** A route's typed path and query parameters: the handler's `ctx.params` and `ctx.query`. */
export interface RouteInput {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
}

/**
 * Parses a matched route's path parameters, then its query, with the route's schemas: once,
 * before the handler runs, so handlers read typed values and never check them again. The
 * first value that fails is the error (its parameter's own, or a `validation_error` naming it).
 */
export function parseRouteInput(
  route: Pick<AnyApiRoute, "params" | "query">,
  params: Record<string, string>,
  query: URLSearchParams,
): RouteInput {
  return {
    params: route.params ? parsePathValues(route.params.shape, params) : {},
    query: route.query ? parseQuery(route.query, query) : {},
  };
}

/** Path values a parameter schema accepted, and what it made of them, kept per schema. */
const acceptedPaths = new WeakMap<z.ZodType, Map<string, string | number | boolean>>();
/** Values kept per schema at most; a full memo starts over (ids, so few repeat for long). */
const ACCEPTED_MAX = 1024;

/**
 * parseValues for path parameters, remembering what each schema made of a value it accepted:
 * clients ask about the same few ids over and over (a status poll), and a schema's answer to
 * a value never changes (no schema here reads anything but its input). Only primitive
 * results are kept, so no caller can change a remembered one; refusals always run the schema,
 * so their errors are built as before.
 */
function parsePathValues(
  shape: Record<string, z.ZodType>,
  values: Record<string, string>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(shape)) {
    const schema = shape[name]!;
    const raw = values[name];
    let accepted = acceptedPaths.get(schema);
    const hit = raw === undefined ? undefined : accepted?.get(raw);
    if (hit !== undefined) {
      out[name] = hit;
      continue;
    }
    const parsed = parseValues({ [name]: schema }, values);
    const value = parsed[name];
    if (
      raw !== undefined &&
      (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
    ) {
      if (!accepted) {
        accepted = new Map();
        acceptedPaths.set(schema, accepted);
      }
      if (accepted.size >= ACCEPTED_MAX) accepted.clear();
      accepted.set(raw, value);
    }
    if (name in parsed) out[name] = value;
  }
  return out;
}

/**
 * What a (non-list) query schema makes of an empty query, kept per schema: most requests send
 * none, and the answer never changes (defaults are constants). One entry per route's schema.
 */
const emptyQueries = new WeakMap<z.ZodObject, Record<string, unknown>>();

function parseQuery(schema: z.ZodObject, query: URLSearchParams): Record<string, unknown> {
  if (!isListQuery(schema)) {
    if (query.size === 0) {
      // A required parameter throws here every time: only an answer is kept.
      let empty = emptyQueries.get(schema);
      if (!empty) {
        empty = parseValues(schema.shape, {});
        emptyQueries.set(schema, empty);
      }
      return { ...empty };
    }
    // Only the parameters it names; a later value of a repeated one wins.
    return parseValues(schema.shape, Object.fromEntries(query));
  }
  const { limit: _limit, cursor: _cursor, ...filters } = schema.shape;
  const list = readListQuery(query, Object.keys(filters));
  return {
    ...parseValues(filters, list.filters),
    limit: list.limit,
    cursor: list.cursor ?? undefined,
  };
}

function parseValues(
  shape: Record<string, z.ZodType>,
  values: Record<string, string | undefined>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(shape)) {
    const raw = values[name];
    const parsed = schema.safeParse(raw);
    if (parsed.success) {
      if (parsed.data !== undefined) out[name] = parsed.data;
      continue;
    }
    const error = parameterMetaOf(schema)?.error;
    throw error ? error(raw ?? "", name) : validationError(name, parsed.error.issues[0]!.message);
  }
  return out;
}
