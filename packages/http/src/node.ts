import type { IncomingMessage, ServerResponse } from "node:http";
import { type ApiRequest, BodyTooLargeError, readLimited } from "./exchange";
import { DISPATCH, type TminusHandler } from "./fetch";
import { API_PREFIX, type Dispatch } from "./handler";
import { isPublicPath } from "./public/urls";

/** A `node:http` style listener; `next` (Express, Connect) receives requests that are not ours. */
export type NodeListener = (
  req: IncomingMessage,
  res: ServerResponse,
  next?: (err?: unknown) => void,
) => void;

/**
 * Adapts a handler to `(req, res)` for node:http, Express, Fastify (with body parsing off for
 * the route) and Connect-style apps. Requests outside `/api/v1` go to `next` when given, so the
 * handler can be mounted in front of an existing app (the public render routes, `/t/...` and
 * `/embed.js`, are the handler's too). The path is `req.url`, so a mount point
 * that strips its prefix (Express `app.use("/countdown", ...)`) works unchanged.
 * @example
 * app.use(createNodeListener(createHandler({ store })));
 */
export function createNodeListener(handler: TminusHandler): NodeListener {
  const dispatch: Dispatch = handler[DISPATCH];
  return (req, res, next) => {
    const raw = req.url ?? "/";
    const q = raw.indexOf("?");
    const path = q === -1 ? raw : raw.slice(0, q);
    if (next && path !== API_PREFIX && !path.startsWith(`${API_PREFIX}/`) && !isPublicPath(path)) {
      next();
      return;
    }
    dispatch(fromNodeRequest(req, path, q === -1 ? "" : raw.slice(q + 1))).then(
      (out) => {
        res.writeHead(out.status, out.headers);
        res.end(out.body);
      },
      (err) => {
        // dispatch never rejects; this is a last resort that still leaks nothing.
        if (next) next(err);
        else {
          res.writeHead(500, { "content-type": "application/json" });
          res.end('{"error":{"code":"internal_error","message":"unexpected error"}}');
        }
      },
    );
  };
}

function fromNodeRequest(req: IncomingMessage, path: string, search: string): ApiRequest {
  return {
    method: (req.method ?? "GET").toUpperCase(),
    path,
    query: new URLSearchParams(search),
    header: (name) => {
      const v = req.headers[name];
      if (v === undefined) return null;
      return Array.isArray(v) ? v.join(", ") : v;
    },
    async text(maxBytes) {
      // A body parser mounted earlier (express.json()) may have consumed the stream already.
      const parsed = (req as IncomingMessage & { body?: unknown }).body;
      if (parsed !== undefined && req.readableEnded) {
        if (typeof parsed === "string") return parsed;
        if (Buffer.isBuffer(parsed)) return parsed.toString("utf8");
        return JSON.stringify(parsed);
      }
      const declared = Number(req.headers["content-length"] ?? "0");
      if (declared > maxBytes) throw new BodyTooLargeError(maxBytes);
      return readLimited(req, maxBytes);
    },
  };
}
