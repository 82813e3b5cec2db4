import { SCOPES } from "@tminus/admin";
import { TZDB_VERSION } from "@tminus/core";
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from "../paging";

/**
 * The document's `info.description`: the rules that apply to every operation and the
 * choices made where the interface specification is silent (docs/api.md has the long form).
 */
export const API_DESCRIPTION = `
tminus is an embeddable countdown-timer service. This document describes the whole \`/api/v1\`:
every operation, parameter, header and error code. It is generated from the same schemas
that validate requests, so it cannot disagree with the service. It is served without a key
at \`{base_url}/openapi.json\`, beside the API (not under \`/api/v1\`, where every path needs
a key), and is in the repository as \`docs/openapi.json\`.

## Envelope

- One object: \`{ "data": {...}, "request_id": "<uuid>" }\`.
- A list: \`{ "data": [...], "page": { "has_more", "next_cursor" }, "request_id" }\`.
- An error: \`{ "error": { "code", "message", "details"? }, "request_id" }\`, never a \`data\` key.
  Branch on \`error.code\` (stable within v1); messages may be reworded. A 500 never leaks a
  stack trace.
- Every response carries \`X-Request-Id\`, equal to \`request_id\`. API responses are
  \`Cache-Control: no-store\`.

## Authentication

\`Authorization: Bearer <key>\` with exactly one space; nothing else authenticates. Keys start
with \`svc_test_\` (sandbox) or \`svc_live_\` (production), carry 190 random bits and a CRC32
checksum, and are stored only as a SHA-256 hash. Failures are checked in this order:
\`401 unauthorized\` (header missing or malformed), \`401 invalid_api_key\` (unknown, revoked,
bad checksum), \`403 suspended\` (account suspended), \`403 forbidden\` (key not scoped for the
route). Scopes: ${SCOPES.map((s) => `\`${s}\``).join(", ")}; a key holds \`*\` unless issued with a
narrower list. Each operation names the scope it needs (in its description and \`x-scopes\`).
Requests that fail authentication are not counted and not logged.

## Environments

A key reaches only its own environment's data: a timer of the other environment or another
account is \`404 not_found\`. A sandbox key cannot publish (\`403 forbidden\`).

## Rate limits

Fixed one-minute windows aligned to the minute, counted per key and per account and
environment; the tighter one answers (sandbox 30/min, production 300/min by default). Every
response after authentication carries \`RateLimit-Limit\`, \`RateLimit-Remaining\` and
\`RateLimit-Reset\` (Unix seconds of the window's end). Over the limit: \`429 rate_limited\` with
\`Retry-After\` (whole seconds, at least 1). \`quota_exhausted\` is also 429 but has no
\`Retry-After\`: it clears only when the billing cycle resets.

## Errors beyond the specification's table

- \`limit\` not an integer in 1..${PAGE_LIMIT_MAX}, an unknown query parameter on a list, a cursor
  altered or used with another query, key or environment: \`400 validation_error\`.
- A body that is not JSON, not an object, over 64 KiB, or sent with a non-JSON
  \`Content-Type\`: \`400 validation_error\` (\`details.field\`: \`body\` or \`Content-Type\`).
- \`details.field\` is set on every \`missing_field\` and \`validation_error\`.
- A control action that does not apply to the timer's status or type:
  \`400 validation_error\` with \`details.field: "status"\` and \`details.reason: "invalid_state"\`.
- Unknown routes, and known paths with another method: \`404 not_found\` (with \`Allow\`).

## Paging

\`limit\` (1..${PAGE_LIMIT_MAX}, default ${PAGE_LIMIT_DEFAULT}) and \`cursor\`. Keyset paging with a strict
comparison, so inserts and deletes elsewhere never move a position. The end of a list is
\`next_cursor: null\` (\`has_more: false\`); a short page is not the end and a full page can be
the last. Cursors are opaque and sealed with an HMAC; never parse or build them.

## Idempotency

\`POST /timers\` requires \`Idempotency-Key\` (optional on duplicate). Keyed by account,
environment and key, kept 24 hours; the fingerprint is method, path and canonical JSON body.
The same request again replays the first response with \`Idempotent-Replayed: true\`; another
request with the same key is \`409 idempotency_conflict\`. Nothing is stored for requests that
fail authentication, rate limiting or validation, or that hit \`quota_exhausted\`.

## Revisions

Timers carry an opaque \`revision\`, also sent as a strong \`ETag\`. Every change (PATCH, DELETE,
control actions) needs \`If-Match\` with it: missing is \`400 missing_field\`, stale is
\`409 revision_conflict\` (read again, then retry). Of concurrent changes with one revision,
exactly one wins.

## Time zones

A timer's \`timezone\` must be one of \`GET /timezones\`: the canonical zones of the tz database
(${TZDB_VERSION}), independent of the names the server's JavaScript engine prefers
(\`Asia/Kolkata\`, not the alias \`Asia/Calcutta\`). Anything else is \`400 invalid_timezone\`,
whose \`details.suggestions\` lists the canonical zones the value probably meant (\`New York\`,
\`EST\` and \`US/Eastern\` all suggest \`America/New_York\`; the message says why an
abbreviation or an offset is not a zone).

## Request log

\`GET /usage/requests\` lists the account's authenticated requests in the key's environment,
newest first, for the configured retention window (\`request_log_retention_days\`, default 30).
`.trim();
