import type { IncomingMessage } from "node:http";
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from "fastify";
import { DISPATCH } from "../transport/dispatch-symbol";
import type { TminusHandler } from "./fetch";
import { createNodeListener } from "./node";

/** Options of {@link tminusFastify}: the handler to mount (Fastify's own `prefix` sets where). */
export interface TminusFastifyOptions {
  handler: TminusHandler;
}

/**
 * Mounts a tminus handler in Fastify 5. Fastify parses bodies before a route runs, which would
 * leave the handler nothing to read: inside this plugin's own context every content type is
 * left unparsed, so the handler reads the raw body with its own size limit, and the app's
 * parsers elsewhere are untouched. Paths the handler does not answer get Fastify's 404.
 * @example
 * import { tminusFastify } from "@tminus/http/fastify";
 * await app.register(tminusFastify, { handler, prefix: "/countdown" });
 */
export const tminusFastify: FastifyPluginCallback<TminusFastifyOptions> = (
  fastify,
  options,
  done,
) => {
  const listener = createNodeListener(options.handler);
  const dispatch = options.handler[DISPATCH];
  const prefix = fastify.prefix;
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser("*", (_request, _payload, parsed) => parsed(null));

  const route = (request: FastifyRequest, reply: FastifyReply) => {
    const raw = request.raw as IncomingMessage & { originalUrl?: string };
    const url = raw.url ?? "/";
    // Fastify hands over the full path; the handler sees it below the prefix and keeps the
    // prefix as its mount point (as under Express), so every URL it builds carries it.
    const below = url.startsWith(prefix) ? url.slice(prefix.length) : url;
    const inner = below === "" || below.startsWith("?") ? `/${below}` : below;
    const q = inner.indexOf("?");
    if (!dispatch.handles(q === -1 ? inner : inner.slice(0, q))) {
      reply.callNotFound();
      return;
    }
    reply.hijack();
    raw.originalUrl = url;
    raw.url = inner;
    listener(raw, reply.raw);
  };
  fastify.all("/*", route);
  done();
};
