import type { Scope } from "@tminus/admin";
import type { z } from "zod";
import type { TminusConfig } from "../config";
import type { ErrorCase } from "../vocabulary/error-cases";
import type { HeaderName, ParameterName } from "../vocabulary/parameter-components";
import type { TagName } from "../vocabulary/tags";
import type { CsvColumn } from "./_analytics-csv";
import type { RouteContext, RouteResult } from "./context";

/** The HTTP methods of the API. */
export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

/** The request body of an operation. */
export interface BodySpec<B, S extends z.ZodType = z.ZodType> {
  /** The zod schema the body is validated with and documented by (a registered request schema). */
  schema: S;
  /** Whether a body must be sent; an absent optional body parses to `undefined`. */
  required: boolean;
  description: string;
  example?: unknown;
  /**
   * Turns the parsed JSON into the handler's input. Default: validate with `schema` and map
   * the first issue to `missing_field` or `validation_error` naming the field.
   */
  parse?: (json: unknown) => B;
  /** The largest body this operation reads, when not `max_body_bytes` (an upload's file). */
  maxBytes?: (config: TminusConfig) => number;
}

/** The success response of an operation. */
export interface SuccessSpec {
  status: number;
  /** The zod schema of the whole response body (a registered response schema). */
  schema: z.ZodType;
  description: string;
  /** Headers besides X-Request-Id and RateLimit-*. */
  headers?: readonly HeaderName[];
  /** The columns of the operation's `text/csv` answer (`format=csv`), when it has one. */
  csv?: readonly CsvColumn[];
}

/**
 * One operation of /api/v1, defined once: what it accepts, what it answers, how it fails, how
 * it is documented, and the handler. The route table is a list of these; the router matches
 * them, the dispatcher validates bodies with them, and the OpenAPI document is derived from
 * them, so the three cannot disagree.
 */
export interface ApiRoute<B = unknown, P = unknown, Q = unknown> {
  method: HttpMethod;
  /** Template under /api/v1, e.g. `/timers/{timer_id}/status`. */
  path: string;
  /** The scope a key needs; null when every valid key may call it (GET /usage). */
  scope: Scope | null;
  operationId: string;
  summary: string;
  description: string;
  tag: TagName;
  /** Shared header parameters (Idempotency-Key, If-Match). */
  headers?: readonly ParameterName[];
  /** The path parameters, one per `{name}` of the path (vocabulary/parameters.ts has the shared ones). */
  params?: z.ZodObject;
  /**
   * The query parameters; a list's is made with `listQuery` (adds `limit` and `cursor`). The
   * descriptions and examples the document shows are the schemas' metadata.
   */
  query?: z.ZodObject;
  body?: BodySpec<B>;
  success: SuccessSpec;
  /** Errors besides authentication, rate limiting, internal errors and those of the parameters. */
  errors?: readonly ErrorCase[];
  handle(ctx: RouteContext<B, P, Q>): Promise<RouteResult>;
}

/** The parts of a route definition its types are inferred from. */
type RouteSpec<B, P extends z.ZodObject, Q extends z.ZodObject> = Omit<
  ApiRoute<B, z.output<P>, z.output<Q>>,
  "params" | "query" | "body"
> & { params?: P; query?: Q };

/** A schema of no parameters: the type of `ctx.params` or `ctx.query` of a route without. */
type None = z.ZodObject<Record<never, never>>;

/**
 * Defines an operation. For the types, the handler's `ctx.body()` is the output of
 * `body.parse`, or of `body.schema` when there is no `parse`; `ctx.params` and `ctx.query` are
 * the outputs of `params` and `query`. Checks that `params` names exactly the path's parameters.
 * @example
 * export const getUsage = defineRoute({ method: "GET", path: "/usage", scope: "usage:read", ... });
 */
export function defineRoute<
  S extends z.ZodType,
  B = z.output<S>,
  P extends z.ZodObject = None,
  Q extends z.ZodObject = None,
>(route: RouteSpec<B, P, Q> & { body: BodySpec<B, S> }): ApiRoute<B, z.output<P>, z.output<Q>>;
export function defineRoute<P extends z.ZodObject = None, Q extends z.ZodObject = None>(
  route: RouteSpec<undefined, P, Q>,
): ApiRoute<undefined, z.output<P>, z.output<Q>>;
export function defineRoute(route: AnyApiRoute): AnyApiRoute {
  const inPath = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).join();
  const declared = Object.keys(route.params?.shape ?? {}).join();
  if (inPath !== declared) {
    throw new Error(
      `${route.operationId}: params must be the path's {${inPath}}, not {${declared}}`,
    );
  }
  return route;
}

/** A route of any body and parameter types, as the table holds them. */
// biome-ignore lint/suspicious/noExplicitAny: the table holds routes of every body type.
export type AnyApiRoute = ApiRoute<any, any, any>;
