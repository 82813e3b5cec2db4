/**
 * The logger the handler writes to: the slice of pino's API it calls, so a pino logger (or
 * any logger with these four methods taking an object and a message) fits without tminus
 * depending on pino. `tminus serve` passes a pino logger.
 */
export interface Logger {
  debug(fields: object, message?: string): void;
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
  /**
   * Optional: writes one request's line, as `info(line, "request")` would, by a faster path
   * (the CLI writes it without pino's generic serializer: it is the one line every request
   * logs). Absent: the handler calls `info(line, "request")`.
   */
  requestLine?(line: RequestLogLine): void;
}

/** One answered request, as logged. Never the query string, a key, a secret or a signature. */
export interface RequestLogLine {
  request_id: string;
  method: string;
  /** The route template (`/api/v1/timers/{timer_id}`), never the path with its ids. */
  route: string;
  status: number;
  duration_ms: number;
  /** The account of the API key, on authenticated requests only. */
  account_id?: string;
  environment?: string;
}
