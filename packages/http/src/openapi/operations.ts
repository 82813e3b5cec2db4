import { MAX_DURATION_SECONDS, TIMER_STATUSES, TIMER_TYPES } from "@tminus/core";
import { ACTIONS, type ActionName } from "../routes/timer-actions";
import { TIMEZONE_SEARCH_MAX } from "../routes/timezones";
import type { RequestSchemaName, ResponseSchemaName } from "./components";
import type { ErrorCase } from "./error-responses";
import { TIMER_CREATE_EXAMPLE } from "./examples";
import type { HeaderName, ParameterName } from "./parameters";
import { WEBHOOK_OPERATIONS } from "./webhook-operations";

/** How one route is documented. Path parameters, scope and the common errors are derived. */
export interface OperationSpec {
  operationId: string;
  summary: string;
  description: string;
  tag: TagName;
  /** A list endpoint: adds `limit` and `cursor` (and `validation_error` for them). */
  list?: boolean;
  /** Shared header parameters (Idempotency-Key, If-Match). */
  headers?: ParameterName[];
  /** Query parameters besides `limit` and `cursor`. */
  query?: QueryParameter[];
  body?: {
    schema: RequestSchemaName;
    required: boolean;
    description: string;
    example?: unknown;
  };
  success: {
    status: number;
    schema: ResponseSchemaName;
    description: string;
    /** Headers besides X-Request-Id and RateLimit-*. */
    headers?: HeaderName[];
  };
  /** Errors besides authentication, rate limiting, internal errors and the derived ones. */
  errors?: ErrorCase[];
}

/** A query parameter of one operation. */
export interface QueryParameter {
  name: string;
  description: string;
  schema: Record<string, unknown>;
  example?: unknown;
}

/** Tags group operations in documentation browsers. */
export const TAGS = {
  Usage: "The key's account: allowance, request counts and the request log.",
  Timers: "Create, read, list, update, duplicate and delete timers.",
  "Timer actions":
    "Lifecycle and clock actions. Each needs If-Match, is recorded in the activity log and answers the changed timer.",
  "Time zones": "The authoritative list of accepted IANA time zone identifiers.",
  Webhooks:
    "Destinations, rules on timers and the deliveries of signed timer events (see the webhooks section for the events themselves).",
  "API description": "This document.",
} as const;

/** One of {@link TAGS}. */
export type TagName = keyof typeof TAGS;

const missingIfMatch: ErrorCase = {
  code: "missing_field",
  name: "missing_if_match",
  message:
    "If-Match header is required on changes: send the timer's revision (its ETag) from your last read",
  details: { field: "If-Match" },
};
const badIfMatch: ErrorCase = {
  code: "validation_error",
  name: "malformed_if_match",
  message:
    'If-Match must carry one revision as returned in the ETag header or the revision field, e.g. "r3" (weak tags and * are not accepted)',
  details: { field: "If-Match" },
};
const stale: ErrorCase = { code: "revision_conflict" };
const bodyNotJson: ErrorCase = {
  code: "validation_error",
  name: "body_not_json",
  message: "request body is not valid JSON: Unexpected token n in JSON at position 1",
  details: { field: "body" },
};
const quota: ErrorCase = { code: "quota_exhausted" };
const idempotencyConflict: ErrorCase = { code: "idempotency_conflict" };
const invalidTimezone: ErrorCase = {
  code: "invalid_timezone",
  message:
    "timezone must be a canonical IANA time zone like Europe/Berlin (see GET /timezones); did you mean Europe/Berlin?",
  details: { field: "timezone" },
};

const ACTION_TEXT: Record<ActionName, { summary: string; description: string }> = {
  publish: {
    summary: "Publish a timer",
    description:
      "Makes the timer public: its hosted page, embed and email images are served. A duration timer without recipients starts counting now. A sandbox key cannot publish (`403 forbidden`, the message says why).",
  },
  archive: {
    summary: "Archive a timer",
    description:
      "Takes the timer out of service: public renders stop and it leaves `GET /timers` unless `status=archived` is asked for.",
  },
  restore: {
    summary: "Restore an archived timer",
    description: "Moves an archived timer back to draft.",
  },
  pause: {
    summary: "Pause a timer",
    description:
      "Freezes the remaining time; the status reply shows `state: paused`. Refused when already paused or ended.",
  },
  resume: {
    summary: "Resume a paused timer",
    description:
      "Continues the countdown; the time spent paused moves the end later. Refused when not paused.",
  },
  extend: {
    summary: "Extend a timer",
    description:
      "Moves the end later by `seconds` (repeatable; extensions add up). Works on ended timers too.",
  },
  reset: {
    summary: "Reset a duration timer",
    description:
      "Restarts a duration timer's own clock now, clearing pauses and extensions (viewers with their own start keep it).",
  },
};

function actionOperation(action: ActionName): OperationSpec {
  const rule = ACTIONS[action];
  const types = rule.types ? rule.types.join(", ") : "all";
  const text = ACTION_TEXT[action];
  // The example refusal shows a status the action really refuses.
  const refused = TIMER_STATUSES.find((s) => !(rule.from as readonly string[]).includes(s))!;
  const errors: ErrorCase[] = [
    missingIfMatch,
    badIfMatch,
    stale,
    {
      code: "validation_error",
      name: "invalid_state",
      message: `${action} is not valid: the timer is ${refused}; ${action} applies to ${rule.from.join(" or ")} timers`,
      details: { field: "status", reason: "invalid_state", status: refused, action },
    },
  ];
  if (action === "publish") {
    errors.push({
      code: "forbidden",
      name: "sandbox_cannot_publish",
      message:
        "a sandbox key cannot publish: public pages, embeds and email images are served only for production timers; use a production key (svc_live_)",
    });
  }
  if (action === "extend") {
    errors.push(
      {
        code: "missing_field",
        name: "missing_seconds",
        message: "seconds is required: how many seconds to add",
        details: { field: "seconds" },
      },
      {
        code: "validation_error",
        name: "invalid_seconds",
        message: `seconds must be an integer from 1 to ${MAX_DURATION_SECONDS}`,
        details: { field: "seconds" },
      },
      bodyNotJson,
    );
  }
  return {
    operationId: `${action}Timer`,
    summary: text.summary,
    description: `${text.description}\n\nValid for timers whose status is ${rule.from.map((s) => `\`${s}\``).join(" or ")}; timer types: ${types}. In any other state the answer is \`400 validation_error\` with \`details.reason: "invalid_state"\`, never a silent no-op. Recorded in the activity log.`,
    tag: "Timer actions",
    headers: ["IfMatch"],
    body:
      action === "extend"
        ? {
            schema: "ExtendRequest",
            required: true,
            description: "How many seconds to add.",
            example: { seconds: 3600 },
          }
        : undefined,
    success: {
      status: 200,
      schema: "TimerResponse",
      description: "The timer after the action, with its new revision.",
      headers: ["ETag"],
    },
    errors,
  };
}

/**
 * The documentation of every /api/v1 route, keyed like the route table (`METHOD /path`).
 * A route registered without an entry here fails the OpenAPI test.
 */
export const OPERATIONS: Record<string, OperationSpec> = {
  "GET /usage": {
    operationId: "getUsage",
    summary: "Read usage",
    description:
      "The allowance and request counts of the key's account and environment in the current billing cycle (the calendar month in UTC). Cheap and creates nothing: a 200 confirms the key and shows its environment.",
    tag: "Usage",
    success: { status: 200, schema: "UsageResponse", description: "The usage object." },
  },
  "GET /usage/requests": {
    operationId: "listRequestLog",
    summary: "List the request log",
    description:
      "The account's own authenticated API requests in the key's environment, newest first. Entries are kept for the operator's retention window (`request_log_retention_days`, default 30 days); older ones are never listed and are purged. A client always sees the requests it made before this one. Requests that failed authentication are not logged.",
    tag: "Usage",
    list: true,
    query: [
      {
        name: "status",
        description: "Only entries with this HTTP status, e.g. `429`.",
        schema: { type: "integer", minimum: 100, maximum: 599 },
        example: 429,
      },
      {
        name: "route",
        description:
          "Only entries of this route template, exactly as logged, e.g. `/api/v1/timers/{timer_id}`.",
        schema: { type: "string", pattern: "^/", maxLength: 256 },
        example: "/api/v1/timers/{timer_id}",
      },
      {
        name: "key",
        description:
          "Only entries made with this key: its id (UUID) or its prefix (`svc_live_AbC12xYz`). Never send a secret; a full key is refused.",
        schema: { type: "string" },
        example: "svc_live_AbC12xYz",
      },
      {
        name: "request_id",
        description: "The entry of one request (the `X-Request-Id` it answered with).",
        schema: { type: "string", format: "uuid" },
      },
    ],
    success: {
      status: 200,
      schema: "RequestLogList",
      description: "A page of request-log entries.",
    },
  },
  "GET /timezones": {
    operationId: "listTimeZones",
    summary: "List accepted time zones",
    description:
      "The authoritative list of identifiers accepted as a timer's `timezone`: the canonical zones of the IANA tz database (zone.tab and zone1970.tab, plus `Etc/UTC`), sorted by id. It does not depend on the JavaScript engine running the service, whose own list prefers some aliases (`Asia/Calcutta`). Offsets and DST are given at the time of the request. Needs no scope of its own: `timers:read` covers it.",
    tag: "Time zones",
    list: true,
    query: [
      {
        name: "search",
        description: `Case-insensitive substring of the id, 1 to ${TIMEZONE_SEARCH_MAX} characters; spaces match underscores (\`new york\` finds \`America/New_York\`).`,
        schema: { type: "string", minLength: 1, maxLength: TIMEZONE_SEARCH_MAX },
        example: "new york",
      },
    ],
    success: {
      status: 200,
      schema: "TimeZoneList",
      description: "A page of time zones.",
      headers: ["Tminus-Tzdb-Version", "Tminus-Icu-Tz-Version"],
    },
  },
  "POST /timers": {
    operationId: "createTimer",
    summary: "Create a timer",
    description:
      "Creates a draft timer. Metered: uses one unit of the monthly `new_timers` allowance (reserved in the same transaction as the insert). Requires `Idempotency-Key`. Type-specific fields of another type are a `validation_error`.",
    tag: "Timers",
    headers: ["IdempotencyKey"],
    body: {
      schema: "TimerCreate",
      required: true,
      description: "The timer definition: one object per `type`.",
      example: TIMER_CREATE_EXAMPLE,
    },
    success: {
      status: 201,
      schema: "TimerResponse",
      description: "The created timer (or the replay of the first response to this key).",
      headers: ["ETag", "Location", "Idempotent-Replayed"],
    },
    errors: [
      {
        code: "missing_field",
        name: "missing_idempotency_key",
        message:
          "Idempotency-Key header is required on POST /timers; send a unique key per new timer",
        details: { field: "Idempotency-Key" },
      },
      { code: "missing_field" },
      {
        code: "validation_error",
        name: "deadline_without_offset",
        message:
          "deadline_at must be an ISO 8601 date-time with Z or a numeric UTC offset, like 2026-11-22T10:00:00Z",
        details: { field: "deadline_at" },
      },
      bodyNotJson,
      invalidTimezone,
      idempotencyConflict,
      quota,
    ],
  },
  "GET /timers": {
    operationId: "listTimers",
    summary: "List timers",
    description:
      "Timers of the key's account and environment. Filters combine with AND. Archived timers are excluded unless `status=archived`.",
    tag: "Timers",
    list: true,
    query: [
      {
        name: "type",
        description: "Only timers of this type.",
        schema: { type: "string", enum: [...TIMER_TYPES] },
      },
      {
        name: "status",
        description:
          "Only timers in this status; `archived` is the only way to list archived ones.",
        schema: { type: "string", enum: [...TIMER_STATUSES] },
      },
      {
        name: "sort",
        description: "Order; a leading minus is descending.",
        schema: {
          type: "string",
          enum: ["created_at", "-created_at", "updated_at", "-updated_at"],
          default: "-created_at",
        },
      },
    ],
    success: { status: 200, schema: "TimerList", description: "A page of timers." },
  },
  "GET /timers/{timer_id}": {
    operationId: "getTimer",
    summary: "Read a timer",
    description: "One timer, with its revision in the body and the ETag header.",
    tag: "Timers",
    success: {
      status: 200,
      schema: "TimerResponse",
      description: "The timer.",
      headers: ["ETag"],
    },
  },
  "PATCH /timers/{timer_id}": {
    operationId: "updateTimer",
    summary: "Update a timer",
    description:
      "Replaces the fields sent: a top-level field (e.g. `look`) is replaced whole; `null` resets an optional field to its default. `type` cannot change and `status` moves only through the control actions. Fields are validated as on create, against the timer's own type. Needs If-Match; of concurrent updates with one revision exactly one wins. Recorded in the activity log.",
    tag: "Timers",
    headers: ["IfMatch"],
    body: {
      schema: "TimerPatch",
      required: true,
      description: "The fields to change.",
      example: { name: "Black Friday 2026", ended: { text: "See you next year" } },
    },
    success: {
      status: 200,
      schema: "TimerResponse",
      description: "The updated timer, with its new revision.",
      headers: ["ETag"],
    },
    errors: [
      missingIfMatch,
      badIfMatch,
      {
        code: "validation_error",
        name: "type_unchangeable",
        message: "type cannot be changed (this is a fixed timer); create a new timer instead",
        details: { field: "type" },
      },
      bodyNotJson,
      invalidTimezone,
      stale,
    ],
  },
  "DELETE /timers/{timer_id}": {
    operationId: "deleteTimer",
    summary: "Delete a timer",
    description:
      "Removes the timer from every read and list; its public renders stop. The allowance unit it used stays used. Needs If-Match. Recorded in the activity log.",
    tag: "Timers",
    headers: ["IfMatch"],
    success: {
      status: 200,
      schema: "DeletedTimerResponse",
      description: "The id of the deleted timer.",
    },
    errors: [missingIfMatch, badIfMatch, stale],
  },
  "GET /timers/{timer_id}/status": {
    operationId: "getTimerStatus",
    summary: "Read a timer's status",
    description:
      "The remaining time at the server's clock, whether the timer has ended, and the server time. Paused timers report their frozen remaining time. Duration and personalized timers can be asked for one viewer with the same parameters as their public URLs; other parameters are a `validation_error`.",
    tag: "Timers",
    query: [
      {
        name: "start",
        description:
          "Duration and personalized timers: this viewer's start (ISO 8601 with offset, or Unix seconds).",
        schema: { type: "string" },
      },
      {
        name: "deadline",
        description:
          "Personalized timers: this viewer's deadline (ISO 8601 with offset, or Unix seconds).",
        schema: { type: "string" },
      },
      {
        name: "sig",
        description: "Personalized timers: the signature of the viewer's parameters.",
        schema: { type: "string" },
      },
    ],
    success: { status: 200, schema: "TimerStatusResponse", description: "The status reply." },
    errors: [
      {
        code: "validation_error",
        name: "unknown_parameter",
        message:
          "deadline is not a parameter of this status request (a duration timer takes start)",
        details: { field: "deadline" },
      },
    ],
  },
  "POST /timers/{timer_id}/duplicate": {
    operationId: "duplicateTimer",
    summary: "Duplicate a timer",
    description:
      "Creates a draft with the same definition. Metered as a new timer. `Idempotency-Key` is optional here and works as on create.",
    tag: "Timers",
    headers: ["IdempotencyKeyOptional"],
    body: {
      schema: "DuplicateRequest",
      required: false,
      description: "Optional: the copy's name.",
      example: { name: "Black Friday (EU)" },
    },
    success: {
      status: 201,
      schema: "TimerResponse",
      description: "The new timer.",
      headers: ["ETag", "Location", "Idempotent-Replayed"],
    },
    errors: [
      {
        code: "validation_error",
        name: "invalid_name",
        message: "name must be a string of 1 to 200 characters",
        details: { field: "name" },
      },
      bodyNotJson,
      idempotencyConflict,
      quota,
    ],
  },
  "GET /timers/{timer_id}/activity": {
    operationId: "listTimerActivity",
    summary: "List a timer's activity",
    description:
      "Every change and control action on the timer, newest first: who (key id and prefix, never the secret), what changed (fields before and after), when, and the request id.",
    tag: "Timers",
    list: true,
    success: { status: 200, schema: "ActivityList", description: "A page of activity entries." },
  },
  ...Object.fromEntries(
    (Object.keys(ACTIONS) as ActionName[]).map((action) => [
      `POST /timers/{timer_id}/${action}`,
      actionOperation(action),
    ]),
  ),
  ...WEBHOOK_OPERATIONS,
};
