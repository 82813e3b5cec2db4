// Success examples, produced by the same code that builds real responses wherever there is
// such code (timerView, describeTimeZone), so an example cannot show a field the API lacks;
// the OpenAPI linter also checks every example against its schema.
import {
  describeTimeZone,
  emptyClock,
  formatInstant,
  timerView,
  validateTimerCreate,
} from "@tminus/core";
import type { TimerRecord } from "@tminus/store";

const REQUEST_ID = "6f1c2b9e-4d3a-4c55-9f0e-2b7d8a1e5c43";
const TIMER_ID = "0b6c3c1e-3f0a-4d5e-9a43-8f1b2c3d4e5f";
const KEY_ID = "5d2e8f40-7c1b-4e9a-a3d6-1f0b9c8e7a65";
const NOW = Date.UTC(2026, 10, 22, 10, 0, 0);

/** A request body of POST /timers. */
export const TIMER_CREATE_EXAMPLE = {
  name: "Black Friday",
  type: "fixed",
  deadline_at: "2026-11-27T09:00:00+01:00",
  timezone: "Europe/Berlin",
  look: { theme: "dark", units: ["days", "hours", "minutes", "seconds"] },
  ended: { text: "Sale over" },
};

function exampleTimer(): Record<string, unknown> {
  const result = validateTimerCreate(TIMER_CREATE_EXAMPLE);
  if (!result.ok) throw new Error(`example timer is invalid: ${result.issues[0]?.message}`);
  const record: TimerRecord = {
    id: TIMER_ID,
    account_id: "example",
    environment: "production",
    name: result.value.name,
    type: result.value.type,
    status: "draft",
    revision: 1,
    created_at: NOW,
    updated_at: NOW,
    published_at: null,
    data: { definition: result.value, clock: emptyClock() },
  };
  return timerView(record);
}

const page = (next: string | null) => ({ has_more: next !== null, next_cursor: next });

/** Example bodies of the success responses, by response component name. */
export function successExamples(): Record<string, unknown> {
  const timer = exampleTimer();
  return {
    TimerResponse: { data: timer, request_id: REQUEST_ID },
    TimerList: { data: [timer], page: page(null), request_id: REQUEST_ID },
    DeletedTimerResponse: {
      data: { id: TIMER_ID, object: "timer", deleted: true },
      request_id: REQUEST_ID,
    },
    TimerStatusResponse: {
      data: {
        object: "timer_status",
        timer_id: TIMER_ID,
        type: "fixed",
        status: "published",
        state: "running",
        remaining: { total_seconds: 424800, days: 4, hours: 22, minutes: 0, seconds: 0 },
        ended: false,
        target_at: "2026-11-27T08:00:00.000Z",
        server_time: formatInstant(NOW),
      },
      request_id: REQUEST_ID,
    },
    UsageResponse: {
      data: {
        object: "usage",
        environment: "production",
        plan: "starter",
        cycle: {
          id: "2026-11",
          starts_at: "2026-11-01T00:00:00.000Z",
          resets_at: "2026-12-01T00:00:00.000Z",
        },
        metrics: [
          {
            metric: "new_timers",
            total: 12,
            limit: 1000,
            remaining: 988,
            warning_threshold: 800,
            starts_at: "2026-11-01T00:00:00.000Z",
            resets_at: "2026-12-01T00:00:00.000Z",
          },
          {
            metric: "api_requests",
            total: 4711,
            limit: "unlimited",
            remaining: "unlimited",
            warning_threshold: 0,
            starts_at: "2026-11-01T00:00:00.000Z",
            resets_at: "2026-12-01T00:00:00.000Z",
          },
        ],
      },
      request_id: REQUEST_ID,
    },
    TimeZoneList: {
      data: ["Asia/Kolkata", "Asia/Kuala_Lumpur"].map((id) => ({
        object: "timezone",
        ...describeTimeZone(id, NOW),
      })),
      page: page("eyJ2IjowfQ.c2lnbmF0dXJl"),
      request_id: REQUEST_ID,
    },
    RequestLogList: {
      data: [
        {
          object: "request_log_entry",
          id: "9a7b6c5d-4e3f-4a1b-8c2d-3e4f5a6b7c8d",
          request_id: "1e2d3c4b-5a69-4788-a9b0-c1d2e3f4a5b6",
          method: "POST",
          route: "/api/v1/timers",
          status: 429,
          error_code: "rate_limited",
          key_id: KEY_ID,
          key_prefix: "svc_live_AbC12xYz",
          duration_ms: 1.274,
          created_at: formatInstant(NOW),
        },
      ],
      page: page(null),
      request_id: REQUEST_ID,
    },
    ActivityList: {
      data: [
        {
          id: "7c6b5a49-3827-4165-9f8e-7d6c5b4a3928",
          object: "timer_activity",
          timer_id: TIMER_ID,
          action: "updated",
          revision: "r2",
          actor: { key_id: KEY_ID, key_prefix: "svc_live_AbC12xYz" },
          request_id: "1e2d3c4b-5a69-4788-a9b0-c1d2e3f4a5b6",
          changes: { name: { before: "Black Friday", after: "Black Friday 2026" } },
          created_at: formatInstant(NOW),
        },
      ],
      page: page(null),
      request_id: REQUEST_ID,
    },
  };
}
