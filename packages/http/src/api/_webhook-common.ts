import type { CursorCodec } from "../cursor";
import type { ApiError } from "../errors";
import { keysetPage } from "../paging";
import type { DocumentedError } from "../vocabulary/error-cases";
import type { RouteContext, RouteResult } from "./context";

/**
 * One page of a newest-first list, positioned by `(created_at, id)` (see `keysetPage`).
 */
export function newestFirstPage<T extends { id: string; created_at: number }>(
  rows: T[],
  limit: number,
  view: (row: T) => unknown,
  cursors: CursorCodec,
  binding: string,
): RouteResult {
  return keysetPage(rows, limit, {
    view,
    position: (row) => ({ value: row.created_at, id: row.id }),
    cursors,
    binding,
  });
}

/** The key's tenant: every webhook query is scoped by account and environment. */
export function scopeOf(ctx: RouteContext) {
  return { account_id: ctx.auth.account.id, environment: ctx.auth.key.environment };
}

/** `404 not_found` for a webhook resource (`errors`: its id's) of this account and environment. */
export function webhookNotFound(
  errors: { notFound: DocumentedError<[string, string]> },
  id: string,
  ctx: RouteContext,
): ApiError {
  return errors.notFound.error(id, `in this ${ctx.auth.key.environment} account`);
}
