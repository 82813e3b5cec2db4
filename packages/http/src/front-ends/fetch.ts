import { createDispatch, type Dispatch, type HandlerOptions } from "../handler";
import { DISPATCH } from "../transport/dispatch-symbol";
import {
  type ApiRequest,
  type ApiResponse,
  BodyTooLargeError,
  readLimited,
  readLimitedBytes,
} from "../transport/exchange";

/** A Fetch-API handler: mount it in anything that speaks `Request`/`Response`. */
export interface TminusHandler {
  (request: Request): Promise<Response>;
  /** Flushes pending request-log entries; call on shutdown. Readiness answers 503 from the start. */
  close(): Promise<void>;
  /**
   * Starts a shutdown: from now on the readiness probe answers 503, so a load balancer stops
   * sending here while requests in flight finish. Call `close()` after the balancer's delay.
   */
  drain(): void;
  /**
   * Starts the render threads and has each draw the default look once, so the first email
   * image is answered in milliseconds instead of after the fonts and an atlas are prepared
   * (a few hundred ms). Optional: without it the threads start on the first image.
   * `tminus serve` calls it at start. Rejects when `@tminus/render` is not installed.
   * @example
   * const handler = createHandler({ store });
   * handler.prepare().catch((err) => console.warn(err.message));
   */
  prepare(): Promise<void>;
  readonly [DISPATCH]: Dispatch;
}

/**
 * Creates the `/api/v1` handler: `(request: Request) => Promise<Response>`, framework-agnostic
 * (Web standard Fetch API). Mount it in Next.js route handlers, Hono, Bun, Deno, or Node via
 * `createNodeListener`.
 * @example
 * const handler = createHandler({ store: sqliteStore({ path: "tminus.db" }) });
 * const res = await handler(new Request("http://x/api/v1/usage", { headers: { authorization } }));
 */
export function createHandler(options: HandlerOptions): TminusHandler {
  const dispatch = createDispatch(options);
  const handler = async (request: Request): Promise<Response> =>
    toFetchResponse(await dispatch(fromFetchRequest(request)));
  return Object.assign(handler, {
    close: dispatch.close,
    drain: dispatch.drain,
    prepare: dispatch.prepare,
    [DISPATCH]: dispatch as Dispatch,
  });
}

function fromFetchRequest(request: Request): ApiRequest {
  const url = new URL(request.url);
  return {
    method: request.method.toUpperCase(),
    path: url.pathname,
    origin: url.origin,
    mountPrefix: "",
    query: url.searchParams,
    header: (name) => request.headers.get(name),
    async text(maxBytes) {
      const declared = Number(request.headers.get("content-length") ?? "0");
      if (declared > maxBytes) throw new BodyTooLargeError(maxBytes);
      if (!request.body) return "";
      return readLimited(request.body as unknown as AsyncIterable<Uint8Array>, maxBytes);
    },
    async bytes(maxBytes) {
      const declared = Number(request.headers.get("content-length") ?? "0");
      if (declared > maxBytes) throw new BodyTooLargeError(maxBytes);
      if (!request.body) return new Uint8Array(0);
      return readLimitedBytes(request.body as unknown as AsyncIterable<Uint8Array>, maxBytes);
    },
  };
}

function toFetchResponse(res: ApiResponse): Response {
  // A 204 or 304 has no body; the Response constructor refuses even an empty one.
  const body = res.status === 204 || res.status === 304 ? null : (res.body as BodyInit);
  return new Response(body, { status: res.status, headers: res.headers });
}
