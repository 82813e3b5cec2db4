import { timerData } from "@tminus/core";
import type { DueTimeRule, NewWebhookEvent } from "@tminus/store";
import { uuidv7 } from "@tminus/store";
import { type Advance, type DuePass, duePass } from "./due-rounds";
import { eventPayload } from "./events";
import { instantsBetween, nextInstant, type TimeInstant } from "./time-events";

/** Rules looked at per store round trip, and instants fired per rule per pass. */
const BATCH = 100;

/** Fires one rule's due instants; null when the computation turned out stale. */
const advance: Advance<DueTimeRule> = async (due, { store, now, baseUrl }) => {
  const { rule, timer } = due;
  const base = {
    account_id: rule.account_id,
    environment: rule.environment,
    rule_id: rule.id,
    expected_fired_through: due.fired_through,
    now,
  };
  if (!timer) {
    // Deleted timer: nothing will ever fire for this rule.
    const ok = await store.advanceTimeRule({
      ...base,
      timer_revision: null,
      fired_through: due.fired_through,
      next_fire_at: null,
      events: [],
    });
    return ok ? 0 : null;
  }
  // Never backwards: another process's clock (or the API's, for a new rule) may run ahead.
  let through = Math.max(now, due.fired_through);
  let instants = instantsBetween(timer, rule, due.fired_through, through, BATCH + 1);
  if (instants.length > BATCH) {
    // Catching up after a long outage: fire a batch now, the rest on the next pass.
    through = instants[BATCH - 1]!.at;
    instants = instants.filter((i) => i.at <= through);
  }
  // An archived timer consumes its instants silently, so restoring it later does not replay
  // ends that passed while it was out of service.
  const firing = timer.status === "archived" ? [] : instants;
  const ok = await store.advanceTimeRule({
    ...base,
    timer_revision: timer.revision,
    fired_through: through,
    next_fire_at: nextInstant(timer, rule, through),
    events: firing.map((i) => timeEvent(i, rule.offset_seconds, baseUrl)),
  });
  return ok ? firing.length : null;
};

/**
 * One pass of the time-based event scheduler: every rule whose `next_fire_at` has come fires
 * the instants it owes in `(fired_through, now]` and stores when to look again. The store
 * commits the events, their deliveries and the new `fired_through` in one compare-and-set
 * transaction, so each instant fires once however many workers run and however long the
 * service was down (missed instants fire on the first pass after a restart). Returns how many
 * events it enqueued.
 */
export const runSchedulerPass: DuePass = duePass(
  (store, now, limit) => store.listDueTimeRules({ now, limit }),
  advance,
  BATCH,
);

function timeEvent(
  instant: TimeInstant,
  offset: number | null,
  baseUrl: string | null,
): NewWebhookEvent {
  return {
    id: uuidv7(instant.at),
    type: instant.type,
    occurred_at: instant.at,
    payload: (timer) =>
      // No request here: the configured base URL, else the one the timer was created under.
      eventPayload(instant.type, timer, instant.at, baseUrl ?? timerData(timer).origin, {
        target_at: instant.target_at,
        ...(instant.type === "timer.threshold" && offset !== null
          ? { offset_seconds: offset }
          : {}),
      }),
  };
}
