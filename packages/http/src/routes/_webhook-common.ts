import type { CursorCodec, CursorPosition } from "../cursor";
import { validationError } from "../errors";
import type { RouteResult } from "../router";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A webhook resource id from the path. The specification's `invalid_timer_id` is for timer
 * ids only; any other id that is not a UUID is a `validation_error` naming the parameter.
 */
export function uuidParam(raw: string | undefined, name: string): string {
  if (!raw || !UUID.test(raw)) {
    throw validationError(name, `${name} "${(raw ?? "").slice(0, 64)}" is not a UUID`);
  }
  return raw.toLowerCase();
}

/**
 * One page of a newest-first list: the store was asked for `limit + 1` rows, so the extra
 * one tells whether more exist without a count; the cursor marks the page's last row.
 */
export function newestFirstPage<T extends { id: string; created_at: number }>(
  rows: T[],
  limit: number,
  view: (row: T) => unknown,
  cursors: CursorCodec,
  binding: string,
): RouteResult {
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  const last = page[page.length - 1];
  const position: CursorPosition | undefined = last && { value: last.created_at, id: last.id };
  return {
    list: page.map(view),
    page: {
      has_more: hasMore,
      next_cursor: hasMore && position ? cursors.encode(position, binding) : null,
    },
  };
}
