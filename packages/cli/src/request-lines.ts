import type { RequestLogLine } from "@tminus/observability";

/** Characters a JSON string may hold as they are: printable ASCII but `"` and `\`. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** A string as JSON: as it is when nothing needs escaping, else `JSON.stringify`'s escapes. */
export function jsonString(value: string): string {
  return PLAIN.test(value) ? `"${value}"` : JSON.stringify(value);
}

/** A number as JSON (pino writes a number that is not finite as `null`, so does this). */
function jsonNumber(value: number): string {
  return Number.isFinite(value) ? String(value) : "null";
}

/**
 * One request line exactly as pino writes `logger.info(line, "request")` (same fields, same
 * order): `head` is pino's start of an `info` line up to the time (`{"level":30,"time":`),
 * `bindings` the logger's own fields (`,"pid":123`). Every string from the request (its
 * method; the route is a template or `unmatched`) is escaped as JSON; a lone surrogate too,
 * where pino writes it raw (and stdout's UTF-8 turns it into U+FFFD).
 */
export function formatRequestLine(
  line: RequestLogLine,
  time: number,
  head: string,
  bindings: string,
): string {
  let out = `${head}${time}${bindings},"request_id":${jsonString(line.request_id)},"method":${jsonString(line.method)},"route":${jsonString(line.route)},"status":${jsonNumber(line.status)},"duration_ms":${jsonNumber(line.duration_ms)}`;
  if (line.account_id !== undefined) out += `,"account_id":${jsonString(line.account_id)}`;
  if (line.environment !== undefined) out += `,"environment":${jsonString(line.environment)}`;
  return `${out},"msg":"request"}\n`;
}

/**
 * Request lines, each formatted at once and handed to `write` (the log destination, which
 * gathers them into pieces: a write per request cost more than the line).
 */
export function requestLines(
  write: (text: string) => void,
  format: { head: string; bindings: string },
): (line: RequestLogLine) => void {
  return (line) => write(formatRequestLine(line, Date.now(), format.head, format.bindings));
}
