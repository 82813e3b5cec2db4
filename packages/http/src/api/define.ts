import type { z } from "zod";
import type { Scope } from "../guards/scopes";
import type { ErrorCase } from "../openapi/error-cases";
import type { HeaderName, ParameterName } from "../openapi/parameters";
import type { TagName } from "../openapi/tags";
import type { RouteContext, RouteResult } from "./context";

/** The HTTP methods of the API. */
export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

/** A query parameter of one operation (besides `limit` and `cursor` of lists). */
export interface QueryParameter {
  name: string;
  description: string;
  /** JSON Schema of the value as the document shows it. */
  schema: Record<string, unknown>;
  example?: unknown;
}

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
}

/** The success response of an operation. */
export interface SuccessSpec {
  status: number;
  /** The zod schema of the whole response body (a registered response schema). */
  schema: z.ZodType;
  description: string;
  /** Headers besides X-Request-Id and RateLimit-*. */
  headers?: readonly HeaderName[];
}

/**
 * One operation of /api/v1, defined once: what it accepts, what it answers, how it fails, how
 * it is documented, and the handler. The route table is a list of these; the router matches
 * them, the dispatcher validates bodies with them, and the OpenAPI document is derived from
 * them, so the three cannot disagree.
 */
export interface ApiRoute<B = unknown> {
  method: HttpMethod;
  /** Template under /api/v1, e.g. `/timers/{timer_id}/status`. */
  path: string;
  /** The scope a key needs; null when every valid key may call it (GET /usage). */
  scope: Scope | null;
  operationId: string;
  summary: string;
  description: string;
  tag: TagName;
  /** A list endpoint: takes `limit` and `cursor` (documented with their `validation_error`). */
  list?: boolean;
  /** Shared header parameters (Idempotency-Key, If-Match). */
  headers?: readonly ParameterName[];
  query?: readonly QueryParameter[];
  body?: BodySpec<B>;
  success: SuccessSpec;
  /** Errors besides authentication, rate limiting, internal errors and those derived from the path. */
  errors?: readonly ErrorCase[];
  handle(ctx: RouteContext<B>): Promise<RouteResult>;
}

/**
 * Defines an operation. An identity function for the types: the handler's `ctx.body()` is the
 * output of `body.parse`, or of `body.schema` when there is no `parse`.
 * @example
 * export const getUsage = defineRoute({ method: "GET", path: "/usage", scope: "usage:read", ... });
 */
export function defineRoute<S extends z.ZodType, B = z.output<S>>(
  route: Omit<ApiRoute<B>, "body"> & { body: BodySpec<B, S> },
): ApiRoute<B>;
export function defineRoute(route: Omit<ApiRoute<undefined>, "body">): ApiRoute<undefined>;
export function defineRoute(route: AnyApiRoute): AnyApiRoute {
  return route;
}

/** A route of any body type, as the table holds them. */
// biome-ignore lint/suspicious/noExplicitAny: the table holds routes of every body type.
export type AnyApiRoute = ApiRoute<any>;
