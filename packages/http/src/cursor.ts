import { createHmac, timingSafeEqual } from "node:crypto";
import { validationError } from "./errors";

/** The position a cursor marks: the last row of the previous page. */
export interface CursorPosition {
  value: number;
  id: string;
}

const MAC_BYTES = 16;

/**
 * Opaque, tamper-evident page cursors (conventions.md, Cursor paging). A cursor carries the
 * keyset position and a fingerprint of everything the query depends on (account, environment,
 * key, route, filters, sort), sealed with an HMAC, so that it cannot be forged, edited or
 * replayed against another query.
 */
export function createCursorCodec(secret: string) {
  const mac = (payload: string) =>
    createHmac("sha256", secret).update(payload).digest().subarray(0, MAC_BYTES);

  return {
    /** Seals a position for the query identified by `binding`. */
    encode(position: CursorPosition, binding: string): string {
      const payload = Buffer.from(
        JSON.stringify([position.value, position.id, fingerprint(binding)]),
      ).toString("base64url");
      return `${payload}.${mac(payload).toString("base64url")}`;
    },

    /** Opens a cursor; `validation_error` (field `cursor`) when altered or for another query. */
    decode(token: string, binding: string): CursorPosition {
      const dot = token.indexOf(".");
      // Stryker disable next-line EqualityOperator,ConditionalExpression: equivalent, no sealed token is 512 long (base64url is never 4n+1 characters, plus "." and 22), and a token without a dot fails the MAC check anyway.
      if (dot <= 0 || token.length > 512) throw invalid();
      const payload = token.slice(0, dot);
      const given = Buffer.from(token.slice(dot + 1), "base64url");
      const expected = mac(payload);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
      let parsed: unknown;
      // Stryker disable BlockStatement: equivalent, an unparsed payload (undefined) fails the shape check below.
      try {
        parsed = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
      } catch {
        throw invalid();
      }
      // Stryker restore BlockStatement
      if (
        !Array.isArray(parsed) ||
        parsed.length !== 3 ||
        typeof parsed[0] !== "number" ||
        typeof parsed[1] !== "string"
      ) {
        throw invalid();
      }
      if (parsed[2] !== fingerprint(binding)) {
        throw validationError(
          "cursor",
          "cursor does not belong to this query: it was issued for other filters, sort, key or environment; start the list again without a cursor",
        );
      }
      return { value: parsed[0], id: parsed[1] };
    },
  };
}

function fingerprint(binding: string): string {
  return createHmac("sha256", "tminus-cursor-binding")
    .update(binding)
    .digest("base64url")
    .slice(0, 16);
}

function invalid() {
  return validationError(
    "cursor",
    "cursor is not valid: pass page.next_cursor from the previous response unchanged",
  );
}

/** The cursor codec returned by `createCursorCodec`. */
export type CursorCodec = ReturnType<typeof createCursorCodec>;
