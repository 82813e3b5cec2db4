import type { ActivityEntry, ChangeTimerInput, TimerChange, TimerRecord } from "../contract";

/**
 * A timer's data as every later read returns it: the JSON text the column keeps byte for byte,
 * and its parse (so a create or change answers exactly what a read will).
 */
export function asStored(data: Record<string, unknown>): {
  text: string;
  value: Record<string, unknown>;
} {
  const text = JSON.stringify(data);
  return { text, value: JSON.parse(text) as Record<string, unknown> };
}

/**
 * What a change writes, once its revision check passed and `change` (the caller's pure
 * callback) ran: the next revision of the timer and its activity entry. `data` is the changed
 * data as stored (`asStored(change.data).value`), undefined when the change keeps it.
 */
export function applyTimerChange(
  input: ChangeTimerInput,
  current: TimerRecord,
  change: TimerChange,
  data: Record<string, unknown> | undefined,
): { timer: TimerRecord; activity: ActivityEntry } {
  const timer: TimerRecord = {
    ...current,
    name: change.name ?? current.name,
    status: change.status ?? current.status,
    published_at: change.published_at === undefined ? current.published_at : change.published_at,
    data: data ?? current.data,
    revision: current.revision + 1,
    updated_at: input.now,
  };
  const activity: ActivityEntry = {
    id: input.activity_id,
    timer_id: timer.id,
    account_id: input.account_id,
    environment: input.environment,
    action: change.action,
    revision: timer.revision,
    ...input.actor,
    changes: change.changes,
    created_at: input.now,
  };
  return { timer, activity };
}
