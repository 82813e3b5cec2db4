import {
  formatInstant,
  TIMER_STATUSES,
  TIMER_TYPES,
  type TimerDefinition,
  timerData,
  timerView,
  validateTimerCreate,
} from "@tminus/core";
import type { NewTimer, StoredResponse, TimerSort } from "@tminus/store";
import { uuidv7 } from "@tminus/store";
import { changeEvent } from "@tminus/webhooks";
import { z } from "zod";
import { limitsFor } from "../config";
import { cycleAt } from "../cycle";
import { dataEnvelope, JSON_HEADERS } from "../envelope";
import { checkIdempotencyKey, requestFingerprint } from "../guards/idempotency";
import { cursorBinding, keysetPage } from "../paging";
import { requestSchemas, responseSchemas } from "../schemas/registry";
import { duplicateRequestSchema } from "../schemas/responses";
import { etagOf, newTimerData } from "../timer-view";
import {
  BODY_NOT_JSON,
  IDEMPOTENCY_CONFLICT,
  INVALID_TIMEZONE,
  MISSING_IDEMPOTENCY_KEY,
  QUOTA_EXHAUSTED,
} from "../vocabulary/error-cases";
import { TIMER_CREATE_EXAMPLE } from "../vocabulary/examples";
import { listQuery, oneOf, timerPath, toldAs } from "../vocabulary/parameters";
import { assertDrawable, UNDRAWABLE_TEXT } from "./_drawable";
import { checkLookBackground, LOOK_BACKGROUND_UNKNOWN } from "./_look-background";
import { checkLookFont, LOOK_FONT_MISSING, LOOK_FONT_UNKNOWN } from "./_look-font";
import {
  actorOf,
  issueToError,
  loadTimer,
  type TimerRouteContext,
  timerResult,
} from "./_timer-common";
import { parseBody } from "./body";
import type { RouteContext, RouteResult } from "./context";
import { defineRoute } from "./define";

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
    // Time-ordered (UUIDv7, 74 random bits): new rows land at the end of every index on the
    // id instead of on a random page, which is most of what an insert costs.
    id: uuidv7(ctx.now),
    account_id: account.id,
    environment: key.environment,
    name: definition.name,
    type: definition.type,
    status: "draft",
    created_at: ctx.now,
    updated_at: ctx.now,
    published_at: null,
    data: newTimerData(definition, ctx.baseUrl),
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
        location: `${ctx.baseUrl}/api/v1/timers/${row.id}`,
      },
      body: dataEnvelope(timerView(row, ctx.baseUrl), ctx.requestId),
    }),
    activity: {
      id: uuidv7(ctx.now),
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
    events: [changeEvent("timer.created", ctx.now, ctx.baseUrl)],
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
      throw IDEMPOTENCY_CONFLICT.error();
    case "quota_exhausted":
      throw QUOTA_EXHAUSTED.error(outcome.limit, outcome.used, formatInstant(cycle.resets_at));
  }
}

function idempotencyKeyOf(ctx: RouteContext, required: boolean): string | null {
  const raw = ctx.req.header("idempotency-key");
  if (raw === null) {
    if (!required) return null;
    throw MISSING_IDEMPOTENCY_KEY.error();
  }
  return checkIdempotencyKey(raw);
}

/** A create body: the definition, and the JSON as sent (the idempotency fingerprint's input). */
interface CreateBody {
  json: unknown;
  definition: TimerDefinition;
}

function parseCreate(json: unknown): CreateBody {
  const result = validateTimerCreate(json);
  if (!result.ok) throw issueToError(result.issues[0]!);
  return { json, definition: result.value };
}

async function createTimer(ctx: RouteContext<CreateBody>): Promise<RouteResult> {
  const key = idempotencyKeyOf(ctx, true)!;
  const { json, definition } = await ctx.body();
  await checkLookBackground(ctx, definition.look);
  await assertDrawable(definition, await checkLookFont(ctx, definition.look));
  return createMetered(
    ctx,
    definition,
    { key, fingerprint: requestFingerprint("POST", ctx.req.path, json) },
    { action: "created" },
  );
}

/** A duplicate body: the copy's name, and the JSON as sent (the fingerprint's input). */
interface DuplicateBody {
  json: unknown;
  name: string | undefined;
}

function parseDuplicate(json: unknown): DuplicateBody {
  return { json, name: parseBody(duplicateRequestSchema, json).name?.trim() };
}

async function duplicateTimer(
  ctx: TimerRouteContext<DuplicateBody | undefined>,
): Promise<RouteResult> {
  const key = idempotencyKeyOf(ctx, false);
  const body = await ctx.body();
  const name = body?.name;
  const source = await loadTimer(ctx);
  const { definition } = timerData(source);
  const copy: TimerDefinition = {
    ...definition,
    name: name ?? `${definition.name} (copy)`.slice(0, NAME_MAX),
  };
  return createMetered(
    ctx,
    copy,
    key ? { key, fingerprint: requestFingerprint("POST", ctx.req.path, body?.json ?? null) } : null,
    { action: "duplicated", source_timer_id: source.id },
  );
}

const SORTS = {
  created_at: { field: "created_at", direction: "asc" },
  "-created_at": { field: "created_at", direction: "desc" },
  updated_at: { field: "updated_at", direction: "asc" },
  "-updated_at": { field: "updated_at", direction: "desc" },
} as const satisfies Record<string, TimerSort>;
type SortName = keyof typeof SORTS;

const LIST_QUERY = listQuery({
  type: oneOf(TIMER_TYPES).optional().meta({ description: "Only timers of this type." }),
  status: oneOf(TIMER_STATUSES).optional().meta({
    description: "Only timers in this status; `archived` is the only way to list archived ones.",
  }),
  name: toldAs(
    z.string().min(1).max(NAME_MAX),
    (name) => `${name} must be 1 to ${NAME_MAX} characters`,
  )
    .optional()
    .meta({
      description: `Only timers whose name contains this text (1 to ${NAME_MAX} characters; ASCII letters match in any case; no wildcards).`,
      example: "friday",
    }),
  sort: oneOf(Object.keys(SORTS) as [SortName, ...SortName[]])
    .default("-created_at")
    .meta({ description: "Order; a leading minus is descending." }),
});

async function listTimers(
  ctx: RouteContext<unknown, unknown, z.output<typeof LIST_QUERY>>,
): Promise<RouteResult> {
  const { limit, cursor, type, status, name, sort: sortName } = ctx.query;
  const sort = SORTS[sortName];
  const { account, key } = ctx.auth;
  // Everything the result depends on: a cursor is valid only for the same values.
  const binding = cursorBinding(ctx.auth, "timers", type, status, sortName, name);
  const after = cursor ? ctx.services.cursors.decode(cursor, binding) : undefined;
  const rows = await ctx.services.store.listTimers({
    account_id: account.id,
    environment: key.environment,
    type,
    name_contains: name,
    // Archived timers leave the list unless the status filter asks for them.
    statuses: status ? [status] : ["draft", "published"],
    sort,
    after,
    limit: limit + 1,
  });
  return keysetPage(rows, limit, {
    view: (row) => timerView(row, ctx.baseUrl),
    position: (row) => ({ value: row[sort.field], id: row.id }),
    cursors: ctx.services.cursors,
    binding,
  });
}

async function getTimer(ctx: TimerRouteContext): Promise<RouteResult> {
  return timerResult(ctx, await loadTimer(ctx));
}

/** Timer routes: create, list, read, duplicate. */
export const timerRoutes = [
  defineRoute({
    method: "POST",
    path: "/timers",
    scope: "timers:write",
    operationId: "createTimer",
    summary: "Create a timer",
    description:
      "Creates a draft timer. Metered: uses one unit of the monthly `new_timers` allowance (reserved in the same transaction as the insert). Requires `Idempotency-Key`. Type-specific fields of another type are a `validation_error`.",
    tag: "Timers",
    headers: ["IdempotencyKey"],
    body: {
      schema: requestSchemas.TimerCreate,
      required: true,
      description: "The timer definition: one object per `type`.",
      example: TIMER_CREATE_EXAMPLE,
      parse: parseCreate,
    },
    success: {
      status: 201,
      schema: responseSchemas.TimerResponse,
      description: "The created timer (or the replay of the first response to this key).",
      headers: ["ETag", "Location", "Idempotent-Replayed"],
    },
    errors: [
      LOOK_FONT_UNKNOWN,
      LOOK_FONT_MISSING,
      LOOK_BACKGROUND_UNKNOWN,
      MISSING_IDEMPOTENCY_KEY,
      { code: "missing_field" },
      {
        code: "validation_error",
        name: "deadline_without_offset",
        message:
          "deadline_at must be an ISO 8601 date-time with Z or a numeric UTC offset, like 2026-11-22T10:00:00Z",
        details: { field: "deadline_at" },
      },
      {
        code: "missing_field",
        name: "deadline_local_without_timezone",
        message: "timezone is required with deadline_local (the zone its wall-clock time is in)",
        details: { field: "timezone" },
      },
      {
        code: "validation_error",
        name: "deadline_in_both_forms",
        message:
          "deadline_local cannot be combined with deadline_at: send the deadline in one form",
        details: { field: "deadline_local" },
      },
      UNDRAWABLE_TEXT,
      BODY_NOT_JSON,
      INVALID_TIMEZONE,
      IDEMPOTENCY_CONFLICT,
      QUOTA_EXHAUSTED,
    ],

    handle: createTimer,
  }),
  defineRoute({
    method: "GET",
    path: "/timers",
    scope: "timers:read",
    operationId: "listTimers",
    summary: "List timers",
    description:
      "Timers of the key's account and environment. Filters combine with AND. Archived timers are excluded unless `status=archived`.",
    tag: "Timers",
    query: LIST_QUERY,
    success: { status: 200, schema: responseSchemas.TimerList, description: "A page of timers." },

    handle: listTimers,
  }),
  defineRoute({
    method: "GET",
    path: "/timers/{timer_id}",
    params: timerPath,
    scope: "timers:read",
    operationId: "getTimer",
    summary: "Read a timer",
    description: "One timer, with its revision in the body and the ETag header.",
    tag: "Timers",
    success: {
      status: 200,
      schema: responseSchemas.TimerResponse,
      description: "The timer.",
      headers: ["ETag"],
    },

    handle: getTimer,
  }),
  defineRoute({
    method: "POST",
    path: "/timers/{timer_id}/duplicate",
    params: timerPath,
    scope: "timers:write",
    operationId: "duplicateTimer",
    summary: "Duplicate a timer",
    description:
      "Creates a draft with the same definition. Metered as a new timer. `Idempotency-Key` is optional here and works as on create.",
    tag: "Timers",
    headers: ["IdempotencyKeyOptional"],
    body: {
      schema: requestSchemas.DuplicateRequest,
      required: false,
      parse: parseDuplicate,
      description: "Optional: the copy's name.",
      example: { name: "Black Friday (EU)" },
    },
    success: {
      status: 201,
      schema: responseSchemas.TimerResponse,
      description: "The new timer.",
      headers: ["ETag", "Location", "Idempotent-Replayed"],
    },
    errors: [
      {
        code: "validation_error",
        name: "invalid_name",
        message: "name must be at most 200 characters long",
        details: { field: "name" },
      },
      BODY_NOT_JSON,
      IDEMPOTENCY_CONFLICT,
      QUOTA_EXHAUSTED,
    ],

    handle: duplicateTimer,
  }),
];
