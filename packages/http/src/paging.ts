import { z } from "zod";
import type { CursorCodec, CursorPosition } from "./cursor";
import { validationError } from "./errors";
import type { AuthContext } from "./guards/auth";

/** Limits of the specification's paging section. */
export const PAGE_LIMIT_DEFAULT = 25;
export const PAGE_LIMIT_MAX = 100;

/** `limit` of a list: a plain integer from 1 to 100, rejected (not clamped) outside. */
export const LIMIT_PARAMETER = z
  .string()
  .regex(/^\d{1,3}$/)
  .transform(Number)
  .pipe(z.int().min(1).max(PAGE_LIMIT_MAX))
  .default(PAGE_LIMIT_DEFAULT)
  .meta({
    description: `Page size, ${1} to ${PAGE_LIMIT_MAX}. Values outside are rejected (\`validation_error\`), not clamped. May change between pages.`,
  });

/** `cursor` of a list: not empty; the codec refuses anything else it did not seal (cursor.ts). */
export const CURSOR_PARAMETER = z.string().min(1).meta({
  maxLength: 512,
  description:
    "Opaque `page.next_cursor` of the previous page; omit for the first. Bound to the query (filters, sort), account and environment that produced it, not to the key (another live key of the account continues it): used with any other query, account or environment, it is a `validation_error` naming `cursor`.",
});

/** `limit` and `cursor` of a list request, validated. */
export interface PageParams {
  limit: number;
  cursor: string | null;
}

/**
 * Reads the query of a list endpoint: rejects parameters the endpoint does not know (a typo in
 * a filter must not silently widen the list) and `limit` outside 1..100 (rejected, not clamped).
 */
export function readListQuery(
  query: URLSearchParams,
  allowed: readonly string[],
): PageParams & { filters: Record<string, string> } {
  const filters: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [name, value] of query) {
    if (seen.has(name)) throw validationError(name, `${name} may be given only once`);
    seen.add(name);
    if (name === "limit" || name === "cursor") continue;
    if (!allowed.includes(name)) {
      const known = ["limit", "cursor", ...allowed].join(", ");
      throw validationError(name, `${name} is not a parameter of this list (known: ${known})`);
    }
    filters[name] = value;
  }
  return {
    limit: parseLimit(query.get("limit")),
    cursor: readCursor(query.get("cursor")),
    filters,
  };
}

function parseLimit(raw: string | null): number {
  const limit = LIMIT_PARAMETER.safeParse(raw ?? undefined);
  if (!limit.success) {
    throw validationError("limit", `limit must be an integer from 1 to ${PAGE_LIMIT_MAX}`);
  }
  return limit.data;
}

function readCursor(raw: string | null): string | null {
  // Stryker disable next-line ConditionalExpression: equivalent, null falls through to `return raw`.
  if (raw === null) return null;
  if (!CURSOR_PARAMETER.safeParse(raw).success)
    throw validationError("cursor", "cursor must not be empty; omit it for the first page");
  return raw;
}

/** The `page` object of a list response. */
export interface PageInfo {
  has_more: boolean;
  next_cursor: string | null;
}

/**
 * The list result of a keyset query that fetched `limit + 1` rows: the page, whether more
 * exist (the extra row), and a cursor sealed at the last row shown.
 */
export function keysetPage<T>(
  rows: readonly T[],
  limit: number,
  options: {
    view: (row: T) => unknown;
    position: (row: T) => CursorPosition;
    cursors: CursorCodec;
    binding: string;
  },
): { list: unknown[]; page: PageInfo } {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  // Stryker disable next-line ConditionalExpression: equivalent for every limit >= 1 (the check narrows the type).
  const hasMore = rows.length > limit && last !== undefined;
  return {
    list: page.map(options.view),
    page: {
      has_more: hasMore,
      next_cursor: hasMore ? options.cursors.encode(options.position(last), options.binding) : null,
    },
  };
}

/**
 * What a list's cursor is bound to: the account, the environment, the list and its filters
 * and sort. Not the key: a key is not a session, and during a rotation a traversal begun with
 * the old key goes on with the new one.
 */
export function cursorBinding(
  auth: Pick<AuthContext, "account" | "key">,
  list: string,
  ...query: unknown[]
): string {
  return [auth.account.id, auth.key.environment, list, ...query].join("|");
}
