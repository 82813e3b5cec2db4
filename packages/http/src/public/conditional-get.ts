import { createHash } from "node:crypto";
import type { ApiRequest, ApiResponse } from "../transport/exchange";

/**
 * The ETag of an email image: its cache key hashed. The key is everything the picture depends
 * on (timer, revision, size, variant, frames, the remaining seconds and the state), so the tag
 * is the same for the same second, look and viewer's clock, and changes with the second.
 */
export function imageEtag(key: string): string {
  let tag = recentTags.get(key);
  if (tag === undefined) {
    tag = `"${createHash("sha256").update(key).digest("base64url").slice(0, 27)}"`;
    // The same picture is asked for many times within its second (one timer, a whole send):
    // its tag is hashed once. Started over when full: the keys move on every second anyway.
    if (recentTags.size >= RECENT_TAGS) recentTags.clear();
    recentTags.set(key, tag);
  }
  return tag;
}

const RECENT_TAGS = 1024;
const recentTags = new Map<string, string>();

/** Whether an If-None-Match value names `etag` (the weak comparison of RFC 9110 13.1.2), or is `*`. */
export function ifNoneMatchHits(header: string | null, etag: string): boolean {
  if (header === null) return false;
  const opaque = etag.replace(/^W\//, "");
  return header.split(",").some((raw) => {
    const tag = raw.trim();
    return tag === "*" || tag.replace(/^W\//, "") === opaque;
  });
}

/**
 * A conditional GET or HEAD whose If-None-Match holds the image's ETag: `304 Not Modified` with
 * the headers the `200` carries (ETag, Cache-Control, Vary, Content-Length), and no body. A proxy that
 * revalidates within the same second keeps its copy; any other response passes unchanged.
 */
export function answerConditional(req: ApiRequest, response: ApiResponse): ApiResponse {
  const etag = response.headers["etag"];
  if (response.status !== 200 || etag === undefined) return response;
  if (!ifNoneMatchHits(req.header("if-none-match"), etag)) return response;
  // Content-Length stays: in a 304 it is the length of the 200 it stands for (RFC 9110 8.6).
  const { "content-type": _type, ...headers } = response.headers;
  return { status: 304, headers, body: "" };
}
