import { ApiError } from "./errors";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a string is a UUID (any version, either case): every id in a path or filter is. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** A timer id from the path: `400 invalid_timer_id` unless it is a UUID. */
export function timerIdParam(raw: string | undefined): string {
  if (!raw || !UUID.test(raw)) {
    throw new ApiError("invalid_timer_id", `timer id "${(raw ?? "").slice(0, 64)}" is not a UUID`);
  }
  return raw.toLowerCase();
}
