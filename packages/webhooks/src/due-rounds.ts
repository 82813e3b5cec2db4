import type { WebhookWorkerStore } from "@tminus/store";

/** Rounds of one pass at the most: an item that stays due (another worker keeps winning it) cannot spin a pass forever. */
const MAX_ROUNDS = 10;

/** One pass of a worker job over what has come due; resolves to the events it enqueued. */
export type DuePass = (
  store: WebhookWorkerStore,
  now: number,
  baseUrl: string | null,
) => Promise<number>;

/** What one pass works with: the store, its clock reading and the base of timer URLs. */
export interface PassContext {
  store: WebhookWorkerStore;
  now: number;
  baseUrl: string | null;
}

/**
 * Moves one due item on (its events enqueued with the compare-and-set that advances it):
 * how many events it enqueued, or null when the compare-and-set lost.
 */
export type Advance<T> = (item: T, pass: PassContext) => Promise<number | null>;

/**
 * A pass that works through what is due, `batch` items per store round trip, until a batch
 * comes back short or nothing in it could be advanced (other workers took it). `advance`
 * answers how many events an item enqueued, or null when its compare-and-set lost.
 */
export function duePass<T>(
  listDue: (store: WebhookWorkerStore, now: number, limit: number) => Promise<readonly T[]>,
  advance: Advance<T>,
  batch: number,
): DuePass {
  return async (store, now, baseUrl) => {
    const pass = { store, now, baseUrl };
    let fired = 0;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const due = await listDue(store, now, batch);
      let advanced = 0;
      for (const item of due) {
        const result = await advance(item, pass);
        if (result !== null) {
          advanced++;
          fired += result;
        }
      }
      if (due.length < batch || advanced === 0) break;
    }
    return fired;
  };
}
