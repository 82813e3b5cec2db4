/**
 * The handler's own minimal request/response pair. The Fetch `Request` adapter and the
 * `node:http` adapter both translate to it, so the Node path never pays for building Web
 * `Request`/`Response` objects it would immediately take apart again.
 */
export interface ApiRequest {
  method: string;
  /** Path without query, e.g. `/api/v1/timers`. */
  path: string;
  query: URLSearchParams;
  /** A header by lowercase name, or null. */
  header(name: string): string | null;
  /** The body as text, at most `maxBytes` bytes; rejects with `BodyTooLargeError` beyond. */
  text(maxBytes: number): Promise<string>;
}

/** A finished response: status, headers and a string body. */
export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  /** Text for JSON and HTML, bytes for images. */
  body: string | Uint8Array;
}

/** The body was larger than the configured limit. */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`request body exceeds ${limit} bytes`);
    this.name = "BodyTooLargeError";
  }
}

/** Reads a byte stream into a string, stopping as soon as it passes `maxBytes`. */
export async function readLimited(
  chunks: AsyncIterable<Uint8Array>,
  maxBytes: number,
): Promise<string> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.byteLength;
    if (size > maxBytes) throw new BodyTooLargeError(maxBytes);
    parts.push(chunk);
  }
  return Buffer.concat(parts).toString("utf8");
}
