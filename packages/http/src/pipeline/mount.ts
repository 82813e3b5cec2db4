import type { Look, UploadedFont } from "@tminus/core";
import type { ImageInput } from "@tminus/render";
import type { Environment, Store } from "@tminus/store";
import type { Services } from "../api/context";
import type { TminusConfig } from "../config";
import type { AuthContext } from "../guards/auth";
import type { ApiRequest, ApiResponse } from "../transport/exchange";
import type { InvokeRoute } from "./invoke-route";

/**
 * One kind of request the handler answers (the probes, the OpenAPI document, the public
 * pages, the API, a dashboard). The handler asks its mounts in order; a new kind of route is
 * a new mount.
 */
export interface Mount {
  /** Whether a path (below the handler's mount prefix and `basePath`) is this mount's. */
  handles(path: string): boolean;
  /** Answers a request whose path it handles; null passes it on to the next mount. */
  handle(request: ApiRequest, context: MountContext): Promise<ApiResponse | null>;
  /** Flushes what the mount holds in memory; the handler's `close()` awaits it. */
  close?(): Promise<void>;
}

/** What the handler knows of a request when it hands it to a mount. */
export interface MountContext {
  /** The request's instant, Unix ms. */
  now: number;
  requestId: string;
  /** The public base URL absolute URLs are built on (configured, or the request's own). */
  baseUrl: string;
  /** `performance.now()` when the request arrived. */
  started: number;
  /**
   * What the metrics, the request line and the span say of the request: the route label
   * (a template, never an id or a query) and, once known, the caller. The mount sets them.
   */
  outcome: RequestOutcome;
}

/** The route label and the caller of one request, filled as it goes. */
export interface RequestOutcome {
  route: string;
  auth: AuthContext | undefined;
}

/**
 * What a mount given to `createHandler({ mounts })` gets from the handler: the store and
 * config, the API's own request pipeline for in-process calls, and the image renderer.
 */
export interface MountHost {
  store: Store;
  config: TminusConfig;
  /** Calls an `/api/v1` operation through the API's pipeline (see `RouteCall`). */
  invokeRoute: InvokeRoute;
  /** Draws an image with the public routes' renderer (threads, queue). */
  renderImage(kind: "png", input: ImageInput): Promise<Uint8Array>;
  /**
   * The uploaded font `look.font_asset_id` names in an account's environment, cut down to what
   * the look draws with `endedText` and `name`, for `ImageInput.font`; null when the look names
   * none or the font is not there (the look then draws with its built-in font).
   */
  lookFont(
    scope: { account_id: string; environment: Environment },
    look: Look,
    text: { endedText?: string; name?: string },
  ): Promise<UploadedFont | null>;
  /** Receives unexpected faults, as the handler's `onError`. */
  onError(error: unknown, requestId: string): void;
  /** The services the API's routes run with (store, config, cursors, read cache). */
  services(): Promise<Services>;
}

/** Builds a mount from what the handler offers; passed in `HandlerOptions.mounts`. */
export type MountFactory = (host: MountHost) => Mount;
