import type { IncomingMessage, ServerResponse } from "node:http";
import type { Dispatch } from "../handler";
import { DISPATCH } from "./dispatch-symbol";
import type { ApiResponse } from "./exchange";
import type { TminusHandler } from "./fetch";
import { NodeApiRequest } from "./node-request";

/** A `node:http` style listener; `next` (Express, Connect) receives requests that are not ours. */
export type NodeListener = (
  req: IncomingMessage,
  res: ServerResponse,
  next?: (err?: unknown) => void,
) => void;

/**
 * Adapts a handler to `(req, res, next?)` for node:http, Express and Connect-style apps
 * (Fastify: `tminusFastify` from `@tminus/http/fastify`). Requests that are not the handler's
 * (anything but `/api/v1`, the public routes `/t/...` and `/embed.js`, `/openapi.json` and the
 * health probes) go
 * to `next` when given, so the handler can sit in front of an existing app. A mount point that
 * strips its prefix (Express `app.use("/countdown", ...)`) works unchanged, its prefix kept in
 * every URL the handler builds.
 * @example
 * app.use("/countdown", createNodeListener(createHandler({ store })));
 */
export function createNodeListener(handler: TminusHandler): NodeListener {
  const dispatch: Dispatch = handler[DISPATCH];
  return (req, res, next) => {
    const raw = req.url ?? "/";
    const q = raw.indexOf("?");
    const path = q === -1 ? raw : raw.slice(0, q);
    if (next && !dispatch.handles(path)) {
      next();
      return;
    }
    dispatch(new NodeApiRequest(req, path, q === -1 ? "" : raw.slice(q + 1))).then(
      (out) => {
        // `complete` is IncomingMessage's; a stand-in request (Fastify's `inject`) only ends.
        withLength(out);
        if (req.complete || req.readableEnded) {
          res.writeHead(out.status, out.headers);
          res.end(out.body);
          return;
        }
        // The body was not read (refused before it mattered, or larger than the limit): Node
        // would keep the connection to drain it, however large it claims to be. Answer and
        // close instead, so a client that declares 10 GB and sends 10 bytes holds nothing.
        res.writeHead(out.status, { ...out.headers, connection: "close" });
        res.end(out.body, () => req.socket?.destroy?.());
      },
      (err) => {
        // dispatch never rejects; this is a last resort that still leaks nothing.
        if (next) next(err);
        else {
          res.writeHead(500, {
            "content-type": "application/json",
            "x-content-type-options": "nosniff",
          });
          res.end('{"error":{"code":"internal_error","message":"unexpected error"}}');
        }
      },
    );
  };
}

/**
 * A body's length in its headers. Without it Node sends the body chunked (writeHead has fixed
 * the headers already): more bytes on the wire, and an extra step for every proxy.
 */
function withLength(out: ApiResponse): void {
  if (out.status === 204 || out.status === 304 || out.headers["content-length"] !== undefined)
    return;
  out.headers["content-length"] = String(
    typeof out.body === "string" ? Buffer.byteLength(out.body) : out.body.byteLength,
  );
}
