import type { CursorCodec } from "../cursor";
import { ApiError, validationError } from "../errors";
import { isUuid } from "../ids";
import { keysetPage } from "../paging";
import type { RouteContext, RouteResult } from "./context";

/**
 * A webhook resource id from the path. The specification's `invalid_timer_id` is for timer
 * ids only; any other id that is not a UUID is a `validation_error` naming the parameter.
 */
export function uuidParam(raw: string | undefined, name: string): string {
  if (!raw || !isUuid(raw)) {
    throw validationError(name, `${name} "${(raw ?? "").slice(0, 64)}" is not a UUID`);
  }
  return raw.toLowerCase();
}

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

/** `404 not_found` for a webhook resource of this account and environment. */
export function webhookNotFound(kind: string, id: string, ctx: RouteContext): ApiError {
  return new ApiError("not_found", `no ${kind} ${id} in this ${ctx.auth.key.environment} account`);
}
