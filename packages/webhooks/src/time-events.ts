import { compileRecurrence, computeStatus, timerData } from "@tminus/core";
import type { TimerRecord, WebhookRule } from "@tminus/store";

/** One time-based event a rule owes: its instant, and the end it is about. */
export interface TimeInstant {
  type: "timer.ended" | "timer.threshold";
  /** When it fires: the end, or `offset_seconds` before it. */
  at: number;
  /** The end (deadline or occurrence) it is about. */
  target_at: number;
}

type RuleTiming = Pick<WebhookRule, "events" | "offset_seconds">;

/**
 * The ends of a timer strictly after `after`, ascending, at most `limit`: a fixed, duration or
 * personalized timer's target (its deadline moved by pauses and extensions; a personalized
 * timer's fallback deadline), or each occurrence of a recurring timer. A paused timer has
 * none: resuming is a change, and every change makes the schedule recompute.
 */
function endsAfter(timer: TimerRecord, after: number, limit: number): number[] {
  const { definition, clock } = timerData(timer);
  if (clock.paused_at !== null) return [];
  if (definition.type !== "recurring") {
    const target = computeStatus({ definition, clock }, after).target_at;
    return target !== null && target > after ? [target] : [];
  }
  // The schedule runs `shift` behind the wall clock (recurringStatus in @tminus/core).
  const schedule = compileRecurrence(definition.recurrence, definition.timezone);
  const shift = clock.extended_seconds * 1000 + clock.paused_ms;
  const out: number[] = [];
  for (let t = schedule.next(after - shift); t !== null && out.length < limit; ) {
    out.push(t + shift);
    t = schedule.next(t);
  }
  return out;
}

/**
 * The instants a rule owes in `(from, to]`, ascending (a threshold before the end it
 * precedes), at most about `limit` of them (ends are fetched `limit` at a time).
 */
export function instantsBetween(
  timer: TimerRecord,
  rule: RuleTiming,
  from: number,
  to: number,
  limit: number,
): TimeInstant[] {
  const out: TimeInstant[] = [];
  if (rule.events.includes("timer.ended")) {
    for (const end of endsAfter(timer, from, limit)) {
      if (end > to) break;
      out.push({ type: "timer.ended", at: end, target_at: end });
    }
  }
  const offset = thresholdOffset(rule);
  if (offset !== null) {
    // A threshold fires `offset` before its end: ends in (from + offset, to + offset].
    for (const end of endsAfter(timer, from + offset, limit)) {
      if (end - offset > to) break;
      out.push({ type: "timer.threshold", at: end - offset, target_at: end });
    }
  }
  return out.sort((a, b) => a.at - b.at || (a.type === "timer.threshold" ? -1 : 1));
}

/** The first instant the rule owes strictly after `after`, or null when none can come. */
export function nextInstant(timer: TimerRecord, rule: RuleTiming, after: number): number | null {
  let next: number | null = null;
  if (rule.events.includes("timer.ended")) next = endsAfter(timer, after, 1)[0] ?? null;
  const offset = thresholdOffset(rule);
  if (offset !== null) {
    const end = endsAfter(timer, after + offset, 1)[0];
    if (end !== undefined && (next === null || end - offset < next)) next = end - offset;
  }
  return next;
}

function thresholdOffset(rule: RuleTiming): number | null {
  if (!rule.events.includes("timer.threshold") || rule.offset_seconds === null) return null;
  return rule.offset_seconds * 1000;
}
