import type { Duplex } from "node:stream";
import { uuidv7 } from "@tminus/store";

/** Why Node's parser refused a request, as the envelope's `details.field` names it. */
const FIELDS: Record<string, { field: string; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    field: "headers",
    message: "the request headers are too large (at most 16 KiB in all)",
  },
  HPE_INVALID_METHOD: { field: "method", message: "the request method is not a valid HTTP method" },
  HPE_UNEXPECTED_CONTENT_LENGTH: {
    field: "Content-Length",
    message: "Content-Length must not be sent with Transfer-Encoding",
  },
  HPE_INVALID_CONTENT_LENGTH: {
    field: "Content-Length",
    message: "Content-Length must be one non-negative integer",
  },
  // Node reports both a Transfer-Encoding that does not end with chunked and one sent with
  // Content-Length under this code.
  HPE_INVALID_TRANSFER_ENCODING: {
    field: "Transfer-Encoding",
    message: "Transfer-Encoding must end with chunked and must not be sent with Content-Length",
  },
  HPE_INVALID_HEADER_TOKEN: { field: "headers", message: "a header name or value is malformed" },
  HPE_LF_EXPECTED: { field: "headers", message: "header lines must end with CRLF" },
  ERR_HTTP_REQUEST_TIMEOUT: {
    field: "request",
    message: "the request was not received completely in time",
  },
  ERR_HTTP_HEADERS_TIMEOUT: {
    field: "headers",
    message: "the request headers were not received completely in time",
  },
};

/**
 * A `clientError` listener for a `node:http` server: requests that Node's parser refuses
 * (an unknown method, a malformed or oversized header block, `Content-Length` with
 * `Transfer-Encoding`, a request that never completes) never reach the handler, so they are
 * answered here with the specification's envelope, `validation_error` naming what was wrong,
 * and an `X-Request-Id`, and the connection is closed: after a framing error nothing that
 * follows on it can be trusted.
 * @example
 * const server = createServer(createNodeListener(handler));
 * server.on("clientError", handleClientError);
 */
export function handleClientError(error: Error & { code?: string }, socket: Duplex): void {
  // Nothing to answer on a connection that is gone or already answered.
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const known = FIELDS[error.code ?? ""] ?? {
    field: "request",
    message: "the request is not valid HTTP/1.1",
  };
  const requestId = uuidv7(Date.now());
  const body = JSON.stringify({
    error: { code: "validation_error", message: known.message, details: { field: known.field } },
    request_id: requestId,
  });
  socket.end(
    [
      "HTTP/1.1 400 Bad Request",
      "Content-Type: application/json; charset=utf-8",
      `Content-Length: ${Buffer.byteLength(body)}`,
      "Cache-Control: no-store",
      "X-Content-Type-Options: nosniff",
      `X-Request-Id: ${requestId}`,
      "Connection: close",
      "",
      body,
    ].join("\r\n"),
  );
  // end() flushes and half-closes; a peer that keeps sending is cut off.
  socket.once("finish", () => socket.destroy());
}
