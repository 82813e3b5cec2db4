import type { ApiRequest } from "../transport/exchange";

/** `/countdown/` -> `/countdown`; none -> "". */
export function normaliseBasePath(basePath: string | undefined): string {
  if (!basePath || basePath === "/") return "";
  const trimmed = basePath.replace(/\/+$/, "");
  if (!trimmed.startsWith("/")) throw new Error(`basePath must start with "/", got "${basePath}"`);
  return trimmed;
}

/**
 * The request with `basePath` taken off its path and added to its mount prefix; null when the
 * path is outside `basePath` (not the handler's).
 */
export function withinBasePath(req: ApiRequest, basePath: string): ApiRequest | null {
  if (basePath === "") return req;
  if (!(req.path === basePath || req.path.startsWith(`${basePath}/`))) return null;
  // Named one by one: a transport's request may keep its fields behind getters, which a
  // spread would not copy.
  return {
    method: req.method,
    path: req.path.slice(basePath.length) || "/",
    get query() {
      return req.query;
    },
    get origin() {
      return req.origin;
    },
    mountPrefix: req.mountPrefix + basePath,
    get remoteAddress() {
      return req.remoteAddress;
    },
    header: (name) => req.header(name),
    text: (maxBytes) => req.text(maxBytes),
  };
}
