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
  /**
   * The body as bytes (a multipart form with a file), at most `maxBytes`; rejects with
   * `BodyTooLargeError` beyond. Absent on requests a caller built without it.
   */
  bytes?(maxBytes: number): Promise<Uint8Array>;
  /**
   * Where the request arrived, as the transport saw it: `scheme://host` (the Host header over
   * the connection's scheme), without any path.
   */
  origin: string;
  /**
   * The path the handler is mounted under (`/countdown`), already taken off `path`: by the
   * framework (Express's `req.baseUrl`) or by the handler's `basePath`. Empty at the root.
   */
  mountPrefix: string;
  /**
   * The client's address as the connection saw it (Node's socket), or null where the
   * transport does not tell (Fetch). Used only, hashed, to tell viewers apart in analytics.
   */
  remoteAddress?: string | null;
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

/** The client went away before its body arrived: nobody to answer, and nothing went wrong here. */
export class IncompleteBodyError extends Error {
  constructor() {
    super("the request body was not received completely");
    this.name = "IncompleteBodyError";
  }
}

/** Reads a byte stream into a string, stopping as soon as it passes `maxBytes`. */
export async function readLimited(
  chunks: AsyncIterable<Uint8Array>,
  maxBytes: number,
): Promise<string> {
  return (await readLimitedBytes(chunks, maxBytes)).toString("utf8");
}

/** {@link readLimited}'s bytes, undecoded. */
export async function readLimitedBytes(
  chunks: AsyncIterable<Uint8Array>,
  maxBytes: number,
): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of chunks) {
      size += chunk.byteLength;
      if (size > maxBytes) throw new BodyTooLargeError(maxBytes);
      parts.push(chunk);
    }
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw error;
    // A connection reset or an aborted upload: the client's doing, not a fault to report.
    const code = (error as { code?: string } | null)?.code;
    if (code === "ECONNRESET" || code === "ABORT_ERR" || (error as Error)?.message === "aborted") {
      throw new IncompleteBodyError();
    }
    throw error;
  }
  return Buffer.concat(parts);
}
