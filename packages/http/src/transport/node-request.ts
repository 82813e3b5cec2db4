import type { IncomingMessage } from "node:http";
import { mountPrefixOf } from "./base-url";
import { type ApiRequest, BodyTooLargeError, readLimited, readLimitedBytes } from "./exchange";

// A Host header as a URL accepts it; anything else falls back to the socket's own address.
const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * A `node:http` request as the dispatcher sees it. The parts most requests never read (the
 * query, the origin, the mount prefix) are worked out on first use: this object is built for
 * every request, and an API call reads only its method, path and one or two headers.
 */
export class NodeApiRequest implements ApiRequest {
  readonly method: string;
  #query: URLSearchParams | undefined;
  #origin: string | undefined;
  #mountPrefix: string | undefined;

  constructor(
    private readonly req: IncomingMessage,
    readonly path: string,
    private readonly search: string,
  ) {
    const method = req.method ?? "GET";
    // Node's parser names methods in capitals already; a stand-in request (Fastify's `inject`)
    // may not.
    this.method = method === "GET" ? method : method.toUpperCase();
  }

  get query(): URLSearchParams {
    this.#query ??= new URLSearchParams(this.search);
    return this.#query;
  }

  get origin(): string {
    this.#origin ??= originOf(this.req);
    return this.#origin;
  }

  get mountPrefix(): string {
    // Express and Connect take a mount path off `url` and keep it in `originalUrl`.
    this.#mountPrefix ??= mountPrefixOf(
      (this.req as IncomingMessage & { originalUrl?: string }).originalUrl,
      this.req.url ?? "/",
    );
    return this.#mountPrefix;
  }

  get remoteAddress(): string | null {
    return this.req.socket.remoteAddress ?? null;
  }

  header(name: string): string | null {
    const v = this.req.headers[name];
    if (v === undefined) return null;
    return Array.isArray(v) ? v.join(", ") : v;
  }

  async text(maxBytes: number): Promise<string> {
    const req = this.req;
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
  }

  async bytes(maxBytes: number): Promise<Uint8Array> {
    const req = this.req;
    const parsed = (req as IncomingMessage & { body?: unknown }).body;
    if (parsed !== undefined && req.readableEnded) {
      if (Buffer.isBuffer(parsed)) return parsed;
      return Buffer.from(typeof parsed === "string" ? parsed : JSON.stringify(parsed));
    }
    const declared = Number(req.headers["content-length"] ?? "0");
    if (declared > maxBytes) throw new BodyTooLargeError(maxBytes);
    return readLimitedBytes(req, maxBytes);
  }
}

function originOf(req: IncomingMessage): string {
  const scheme = (req.socket as { encrypted?: boolean }).encrypted ? "https" : "http";
  const host = req.headers.host;
  if (host && HOST.test(host)) return `${scheme}://${host}`;
  const { localAddress, localPort } = req.socket;
  const address = localAddress?.includes(":") ? `[${localAddress}]` : (localAddress ?? "localhost");
  return `${scheme}://${address}:${localPort ?? 80}`;
}
