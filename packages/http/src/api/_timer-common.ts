import { timerView, type ValidationIssue } from "@tminus/core";
import type { Actor, TimerChange, TimerRecord, WebhookEventType } from "@tminus/store";
import { uuidv7 } from "@tminus/store";
import { changeEvent } from "@tminus/webhooks";
import { ApiError } from "../errors";
import { cursorBinding } from "../paging";
import { etagOf } from "../timer-view";
import {
  BAD_IF_MATCH,
  MISSING_IF_MATCH,
  STALE_REVISION,
  TIMER_NOT_FOUND,
} from "../vocabulary/error-cases";
import type { RouteContext, RouteResult } from "./context";

/** A core validation issue as the specification's error (code, message, `details.field`). */
export function issueToError(issue: ValidationIssue): ApiError {
  const details: Record<string, unknown> = { field: issue.field };
  // An unknown zone names the canonical zones it probably meant (`details.suggestions`).
  if (issue.code === "invalid_timezone") details.suggestions = issue.suggestions ?? [];
  return new ApiError(issue.code, issue.message, { details });
}

/** The context of a route under `/timers/{timer_id}` (its `params` are `timerPath`). */
export type TimerRouteContext<B = unknown, Q = unknown> = RouteContext<B, { timer_id: string }, Q>;

/** The timer named by the path, within the key's account and environment, or 404. */
export async function loadTimer(ctx: TimerRouteContext): Promise<TimerRecord> {
  const id = ctx.params.timer_id;
  const { account, key } = ctx.auth;
  const timer = await ctx.services.cache.getTimer(account.id, key.environment, id);
  // A timer of the other environment or account does not exist from this key's view.
  if (!timer) throw TIMER_NOT_FOUND.error(id, key.environment);
  return timer;
}

/**
 * The start of a list under `/timers/{timer_id}` (`list` names it in the cursor binding): the
 * timer of the path as the store's filter, the binding, and the position the cursor carries.
 */
export async function timerListStart(
  ctx: TimerRouteContext<unknown, { cursor?: string | undefined }>,
  list: string,
) {
  const timer = await loadTimer(ctx);
  const binding = cursorBinding(ctx.auth, list, timer.id);
  const { cursor } = ctx.query;
  const after = cursor ? ctx.services.cursors.decode(cursor, binding) : undefined;
  const of = { account_id: timer.account_id, environment: timer.environment, timer_id: timer.id };
  return { of, binding, after };
}

/** Who is acting: the key (id and display prefix, never the secret) and the request. */
export function actorOf(ctx: RouteContext): Actor {
  return { key_id: ctx.auth.key.id, key_prefix: ctx.auth.key.prefix, request_id: ctx.requestId };
}

// Accepts the revision as sent in the body ("r3") or as the ETag ("\"r3\"").
const IF_MATCH = /^\s*"?r(\d{1,15})"?\s*$/;

/** The revision of `If-Match`: required on every change (decisions.md). */
export function ifMatchRevision(ctx: RouteContext): number {
  const raw = ctx.req.header("if-match");
  if (raw === null || raw.trim() === "") throw MISSING_IF_MATCH.error();
  const m = IF_MATCH.exec(raw);
  if (!m) throw BAD_IF_MATCH.error();
  return Number(m[1]);
}

/**
 * Applies a change to the timer of the path under optimistic concurrency: the store checks the
 * revision, applies `change` to the current row and records the activity in one transaction.
 * `change` may throw an `ApiError` to refuse (nothing is written).
 */
export async function changeTimer(
  ctx: TimerRouteContext,
  change: (current: TimerRecord) => TimerChange,
): Promise<TimerRecord> {
  const id = ctx.params.timer_id;
  const expected = ifMatchRevision(ctx);
  const { account, key } = ctx.auth;
  let deleted = false;
  const outcome = await ctx.services.store.changeTimer({
    account_id: account.id,
    environment: key.environment,
    id,
    expected_revision: expected,
    actor: actorOf(ctx),
    activity_id: uuidv7(ctx.now),
    now: ctx.now,
    // Every change and control action emits its webhook event (`timer.<action>`, e.g.
    // timer.published), written in the same transaction as the change itself.
    change: (current) => {
      const applied = change(current);
      deleted = applied.delete === true;
      return {
        ...applied,
        events: [changeEvent(`timer.${applied.action}` as WebhookEventType, ctx.now, ctx.baseUrl)],
      };
    },
  });
  if (outcome.kind === "not_found") throw TIMER_NOT_FOUND.error(id, key.environment);
  if (outcome.kind === "revision_conflict") {
    throw STALE_REVISION.error(expected, outcome.current.revision);
  }
  // This process's next read sees the change at once, before the generation check does.
  ctx.services.cache.timerChanged(outcome.timer, deleted);
  return outcome.timer;
}

/** A timer response with its ETag. */
export function timerResult(ctx: RouteContext, timer: TimerRecord): RouteResult {
  return {
    data: timerView(timer, ctx.baseUrl),
    headers: { etag: etagOf(timer) },
  };
}

/** Top-level fields whose JSON differs, with their values before and after. */
export function diffFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, { before: unknown; after: unknown }> {
  const out: Record<string, { before: unknown; after: unknown }> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
      out[key] = { before: before[key] ?? null, after: after[key] ?? null };
    }
  }
  return out;
}
