import type { ApiRequest } from "./exchange";

/**
 * The public base URL of a request (`https://shop.example/countdown`): what absolute URLs in
 * answers are built on (`Location`, a timer's `urls`, the embed script's origin, cookie paths).
 * A configured `base_url` wins. Otherwise the request's origin and mount prefix; with
 * `trustProxy`, the proxy's `Forwarded` (proto, host) or `X-Forwarded-Proto`,
 * `X-Forwarded-Host` and `X-Forwarded-Prefix` headers override them. Those headers are ignored
 * without `trustProxy`: anyone can send them.
 */
export function requestBaseUrl(
  req: ApiRequest,
  options: { configured: string | null; trustProxy: boolean },
): string {
  if (options.configured !== null) return options.configured;
  let origin = req.origin;
  let prefix = req.mountPrefix;
  if (options.trustProxy) {
    const forwarded = parseForwarded(req.header("forwarded"));
    const proto = forwarded.proto ?? firstValue(req.header("x-forwarded-proto"));
    const host = forwarded.host ?? firstValue(req.header("x-forwarded-host"));
    const url = new URL(origin);
    const scheme = proto === "http" || proto === "https" ? proto : url.protocol.slice(0, -1);
    // A forwarded host replaces host and port together (it names what the client used).
    origin = new URL(`${scheme}://${host && HOST.test(host) ? host : url.host}`).origin;
    const forwardedPrefix = firstValue(req.header("x-forwarded-prefix"));
    if (forwardedPrefix !== undefined && PREFIX.test(forwardedPrefix)) {
      prefix = forwardedPrefix.replace(/\/+$/, "") + prefix;
    }
  }
  return origin + prefix;
}

// A host[:port] as a URL accepts it, and a path prefix of plain segments: a proxy header is
// input like any other, never trusted to carry markup or another scheme.
const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;
const PREFIX = /^(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)*\/?$/;

function firstValue(header: string | null): string | undefined {
  if (header === null) return undefined;
  const first = header.split(",")[0]!.trim();
  return first === "" ? undefined : first;
}

/**
 * The client's address: the connection's, or behind a proxy you run (`trustProxy`) the first
 * `Forwarded: for=` or `X-Forwarded-For` entry. Null when nothing tells.
 */
export function clientAddress(req: ApiRequest, trustProxy: boolean): string | null {
  if (trustProxy) {
    const forwarded =
      parseForwarded(req.header("forwarded")).for ?? firstValue(req.header("x-forwarded-for"));
    if (forwarded !== undefined) return forwarded;
  }
  return req.remoteAddress ?? null;
}

/** The first element of an RFC 7239 `Forwarded` header: its `proto`, `host` and `for`. */
function parseForwarded(header: string | null): { proto?: string; host?: string; for?: string } {
  if (header === null) return {};
  const out: { proto?: string; host?: string; for?: string } = {};
  for (const pair of header.split(",")[0]!.split(";")) {
    const eq = pair.indexOf("=");
    if (eq < 0) continue;
    const name = pair.slice(0, eq).trim().toLowerCase();
    const value = pair
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, "$1");
    if (name === "proto") out.proto = value.toLowerCase();
    if (name === "host") out.host = value;
    if (name === "for") out.for = value;
  }
  return out;
}

/**
 * The mount prefix a framework took off the path: `originalUrl` (Express, Connect) ends with
 * the `url` the handler sees. Empty when the handler is at the root.
 */
export function mountPrefixOf(originalUrl: string | undefined, url: string): string {
  if (!originalUrl || originalUrl === url) return "";
  const path = (u: string) => {
    const q = u.indexOf("?");
    return q === -1 ? u : u.slice(0, q);
  };
  const full = path(originalUrl);
  const seen = path(url);
  if (seen === "/" && full.length > 0 && !full.endsWith("/")) return full;
  return full.endsWith(seen) ? full.slice(0, full.length - seen.length) : "";
}
