import type { Store } from "@tminus/store";
import type { TminusConfig } from "../config";
import type { CursorCodec } from "../cursor";
import type { AuthContext } from "../guards/auth";
import type { ReadCache } from "../guards/read-cache";
import type { ApiRequest } from "../transport/exchange";

/** The path every API route lives under. */
export const API_PREFIX = "/api/v1";

/** Everything a route needs besides the request. */
export interface Services {
  store: Store;
  config: TminusConfig;
  cursors: CursorCodec;
  /** Keys and timers served from memory while the store's generations stay put. */
  cache: ReadCache;
  /** Resolves once every request answered before the call is in the request log. */
  flushRequestLog(): Promise<void>;
  /** Resolves once every request counted before the call is in the usage counters. */
  flushUsage(): Promise<void>;
  /** Resolves once every public view counted before the call is in the store (analytics). */
  flushViews(): Promise<void>;
}

/**
 * The context a route handler receives. `B` is what its body spec parses the body into, `P`
 * and `Q` what its `params` and `query` schemas parse the path and the query into.
 */
export interface RouteContext<B = unknown, P = unknown, Q = unknown> {
  req: ApiRequest;
  /** The path parameters, parsed with the route's `params` schema before the handler runs. */
  params: P;
  /** The query parameters, parsed with the route's `query` schema before the handler runs. */
  query: Q;
  auth: AuthContext;
  now: number;
  requestId: string;
  /**
   * The public base URL absolute URLs are built on: the configured `base_url`, or this
   * request's origin and mount prefix (see base-url.ts).
   */
  baseUrl: string;
  services: Services;
  /**
   * Reads the JSON body and validates it with the route's own body schema (the one its
   * OpenAPI operation shows). Called by the handler where the body matters, so that checks of
   * the path and headers keep answering first.
   */
  body(): Promise<B>;
}

/** What a route returns; the handler wraps `data` in the envelope. */
export type RouteResult =
  | { status?: number; data: unknown; headers?: Record<string, string> }
  | {
      status?: number;
      list: unknown[];
      page: { has_more: boolean; next_cursor: string | null };
      headers?: Record<string, string>;
    }
  | { raw: { status: number; headers: Record<string, string>; body: string } };
