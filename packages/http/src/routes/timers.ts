import { randomUUID } from "node:crypto";
import {
  formatInstant,
  TIMER_STATUSES,
  TIMER_TYPES,
  type TimerDefinition,
  type TimerStatus,
  type TimerType,
  validateTimerCreate,
} from "@tminus/core";
import type { NewTimer, StoredResponse, TimerSort } from "@tminus/store";
import { readJsonBody } from "../body";
import { limitsFor } from "../config";
import { cycleAt } from "../cycle";
import { dataEnvelope, JSON_HEADERS } from "../envelope";
import { ApiError, validationError } from "../errors";
import type { RouteContext } from "../handler";
import { checkIdempotencyKey, requestFingerprint } from "../idempotency";
import { keysetPage, readListQuery } from "../paging";
import type { Route, RouteResult } from "../router";
import { etagOf, newTimerData, timerData, timerView } from "../timer-view";
import { changeEvent } from "../webhooks/events";
import { actorOf, issueToError, loadTimer, timerResult } from "./_timer-common";

const NAME_MAX = 200;

/**
 * The one path for everything metered as a new timer (POST /timers and duplicate): the
 * allowance, the insert and the idempotency record are one store transaction.
 */
async function createMetered(
  ctx: RouteContext,
  definition: TimerDefinition,
  idempotency: { key: string; fingerprint: string } | null,
  origin: { action: "created" } | { action: "duplicated"; source_timer_id: string },
): Promise<RouteResult> {
  const { account, key } = ctx.auth;
  const { config, store } = ctx.services;
  const cycle = cycleAt(ctx.now);
  const limit = limitsFor(config, account.plan, key.environment).new_timers_per_cycle;
  const timer: NewTimer = {
    id: randomUUID(),
    account_id: account.id,
    environment: key.environment,
    name: definition.name,
    type: definition.type,
    status: "draft",
    created_at: ctx.now,
    updated_at: ctx.now,
    published_at: null,
    data: newTimerData(definition),
  };
  const outcome = await store.createTimer({
    timer,
    allowance: { cycle_id: cycle.id, limit },
    idempotency: idempotency
      ? { ...idempotency, expires_at: ctx.now + config.idempotency_ttl_hours * 3_600_000 }
      : undefined,
    respond: (row): StoredResponse => ({
      status: 201,
      headers: {
        ...JSON_HEADERS,
        etag: etagOf(row),
        location: `${config.base_url}/api/v1/timers/${row.id}`,
      },
      body: dataEnvelope(timerView(row, config.base_url), ctx.requestId),
    }),
    activity: {
      id: randomUUID(),
      timer_id: timer.id,
      account_id: account.id,
      environment: key.environment,
      action: origin.action,
      revision: 1,
      ...actorOf(ctx),
      changes:
        origin.action === "duplicated"
          ? { source_timer_id: { before: null, after: origin.source_timer_id } }
          : {},
      created_at: ctx.now,
    },
    // A duplicate is a new timer too: both send timer.created, with the new timer.
    events: [changeEvent("timer.created", ctx.now, config.base_url)],
    now: ctx.now,
  });
  switch (outcome.kind) {
    case "created":
      return { raw: outcome.response };
    case "replayed":
      return {
        raw: {
          ...outcome.response,
          headers: { ...outcome.response.headers, "idempotent-replayed": "true" },
        },
      };
    case "idempotency_conflict":
      throw new ApiError(
        "idempotency_conflict",
        "this Idempotency-Key was already used with a different request; use a new key for a new request",
      );
    case "quota_exhausted":
      throw new ApiError(
        "quota_exhausted",
        `the monthly allowance of ${outcome.limit} new timers is spent; it resets at ${formatInstant(cycle.resets_at)}`,
        {
          details: {
            metric: "new_timers",
            limit: outcome.limit,
            used: outcome.used,
            resets_at: formatInstant(cycle.resets_at),
          },
        },
      );
  }
}

function idempotencyKeyOf(ctx: RouteContext, required: boolean): string | null {
  const raw = ctx.req.header("idempotency-key");
  if (raw === null) {
    if (!required) return null;
    throw new ApiError(
      "missing_field",
      "Idempotency-Key header is required on POST /timers; send a unique key per new timer",
      { details: { field: "Idempotency-Key" } },
    );
  }
  return checkIdempotencyKey(raw);
}

async function createTimer(ctx: RouteContext): Promise<RouteResult> {
  const key = idempotencyKeyOf(ctx, true)!;
  const body = await readJsonBody(ctx.req, ctx.services.config.max_body_bytes);
  const result = validateTimerCreate(body);
  if (!result.ok) throw issueToError(result.issues[0]!);
  return createMetered(
    ctx,
    result.value,
    { key, fingerprint: requestFingerprint("POST", ctx.req.path, body) },
    { action: "created" },
  );
}

async function duplicateTimer(ctx: RouteContext): Promise<RouteResult> {
  const key = idempotencyKeyOf(ctx, false);
  const body = await readJsonBody(ctx.req, ctx.services.config.max_body_bytes, { optional: true });
  const name = duplicateName(body);
  const source = await loadTimer(ctx);
  const { definition } = timerData(source);
  const copy: TimerDefinition = {
    ...definition,
    name: name ?? `${definition.name} (copy)`.slice(0, NAME_MAX),
  };
  return createMetered(
    ctx,
    copy,
    key ? { key, fingerprint: requestFingerprint("POST", ctx.req.path, body ?? null) } : null,
    { action: "duplicated", source_timer_id: source.id },
  );
}

function duplicateName(body: unknown): string | undefined {
  if (body === undefined) return undefined;
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw validationError("body", "request body must be a JSON object");
  }
  for (const [field, value] of Object.entries(body)) {
    if (field !== "name") {
      throw validationError(field, `${field} is not a field of a duplicate request (only name)`);
    }
    if (typeof value !== "string" || value.trim() === "" || value.length > NAME_MAX) {
      throw validationError("name", `name must be a string of 1 to ${NAME_MAX} characters`);
    }
  }
  return (body as { name?: string }).name?.trim();
}

const SORTS: Record<string, TimerSort> = {
  created_at: { field: "created_at", direction: "asc" },
  "-created_at": { field: "created_at", direction: "desc" },
  updated_at: { field: "updated_at", direction: "asc" },
  "-updated_at": { field: "updated_at", direction: "desc" },
};

function oneOf<T extends string>(field: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw validationError(field, `${field} must be one of ${allowed.join(", ")}`);
  }
  return value as T;
}

async function listTimers(ctx: RouteContext): Promise<RouteResult> {
  const { limit, cursor, filters } = readListQuery(ctx.req.query, ["type", "status", "sort"]);
  const type =
    filters.type === undefined ? undefined : oneOf<TimerType>("type", filters.type, TIMER_TYPES);
  const status =
    filters.status === undefined
      ? undefined
      : oneOf<TimerStatus>("status", filters.status, TIMER_STATUSES);
  const sortName = filters.sort ?? "-created_at";
  const sort = SORTS[sortName];
  if (!sort) throw validationError("sort", `sort must be one of ${Object.keys(SORTS).join(", ")}`);
  const { account, key } = ctx.auth;
  // Everything the result depends on: a cursor is valid only for the same values.
  const binding = [account.id, key.environment, key.id, "timers", type, status, sortName].join("|");
  const after = cursor ? ctx.services.cursors.decode(cursor, binding) : undefined;
  const rows = await ctx.services.store.listTimers({
    account_id: account.id,
    environment: key.environment,
    type,
    // Archived timers leave the list unless the status filter asks for them.
    statuses: status ? [status] : ["draft", "published"],
    sort,
    after,
    limit: limit + 1,
  });
  return keysetPage(rows, limit, {
    view: (row) => timerView(row, ctx.services.config.base_url),
    position: (row) => ({ value: row[sort.field], id: row.id }),
    cursors: ctx.services.cursors,
    binding,
  });
}

async function getTimer(ctx: RouteContext): Promise<RouteResult> {
  return timerResult(ctx, await loadTimer(ctx));
}

/** Timer routes: create, list, read, duplicate. */
export const timerRoutes: Route<RouteContext>[] = [
  { method: "POST", path: "/timers", scope: "timers:write", handle: createTimer },
  { method: "GET", path: "/timers", scope: "timers:read", handle: listTimers },
  { method: "GET", path: "/timers/{timer_id}", scope: "timers:read", handle: getTimer },
  {
    method: "POST",
    path: "/timers/{timer_id}/duplicate",
    scope: "timers:write",
    handle: duplicateTimer,
  },
];
