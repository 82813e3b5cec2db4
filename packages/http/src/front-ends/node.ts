import type { IncomingMessage, ServerResponse } from "node:http";
import type { Dispatch } from "../handler";
import { DISPATCH } from "../transport/dispatch-symbol";
import type { ApiResponse } from "../transport/exchange";
import { NodeApiRequest } from "../transport/node-request";
import type { TminusHandler } from "./fetch";

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
        // The body was not read (refused before it mattered, or larger than the limit). A
        // small one is read and dropped first: closing while the client still writes resets
        // the connection, and the client loses the answer with it. A large one (a client that
        // declares 10 GB and sends 10 bytes) is answered at once and the socket destroyed, so
        // it holds nothing.
        // Either way the connection closes after the answer: what follows an unread body is
        // not trusted to be the next request.
        discardBody(req, (drained) => {
          res.writeHead(out.status, { ...out.headers, connection: "close" });
          if (drained) res.end(out.body);
          else res.end(out.body, () => req.socket?.destroy?.());
        });
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

/** What an unread request body may still be read and dropped: bytes, and time to send them. */
const DISCARD_BYTES = 8 * 1024 * 1024;
const DISCARD_MS = 2_000;

/**
 * Reads and drops the rest of an unread body when it is at most DISCARD_BYTES and arrives
 * within DISCARD_MS; `done(true)` once it has, `done(false)` at once for a larger declared body
 * and as soon as either bound is passed (the caller then closes the connection).
 */
function discardBody(req: IncomingMessage, done: (drained: boolean) => void): void {
  const declared = Number(req.headers["content-length"] ?? Number.NaN);
  if ((Number.isFinite(declared) && declared > DISCARD_BYTES) || typeof req.on !== "function") {
    done(false);
    return;
  }
  let bytes = 0;
  let settled = false;
  const finish = (drained: boolean): void => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    req.off("data", count);
    req.off("end", ended);
    req.off("error", failed);
    done(drained);
  };
  const count = (chunk: Buffer): void => {
    bytes += chunk.length;
    if (bytes > DISCARD_BYTES) finish(false);
  };
  const ended = (): void => finish(true);
  const failed = (): void => finish(false);
  const timer = setTimeout(() => finish(false), DISCARD_MS);
  req.on("data", count);
  req.once("end", ended);
  req.once("error", failed);
  req.resume();
}
