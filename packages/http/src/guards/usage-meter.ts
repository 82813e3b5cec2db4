import type { Environment, Store, UsageIncrement } from "@tminus/store";
import { createBatchWriter } from "../batch-writer";

/** Counts `api_requests` in memory and adds them to the store in batches. */
export interface UsageMeter {
  /** One more request of the account in the environment and cycle. */
  count(account_id: string, environment: Environment, cycle_id: string): void;
  /** Resolves once every count made before the call is in the store. */
  flush(): Promise<void>;
}

/**
 * Request counts are kept in memory and written every `intervalMs` (one multi-row write for
 * everything counted meanwhile) and on `flush()` (GET /usage flushes first, so a caller sees
 * its own requests; shutdown flushes last). A process killed with SIGKILL loses at most the
 * counts of its last interval: reported usage only, never anything that admits a request.
 */
export function createUsageMeter(
  store: Store,
  onError: (error: unknown, requestId: string) => void,
  intervalMs = 100,
): UsageMeter {
  let pending = new Map<string, UsageIncrement>();
  // An entry of `pending`, the one the last count went to.
  let lastCounted: UsageIncrement | null = null;
  const batches = createBatchWriter(() => {
    const batch = [...pending.values()];
    pending = new Map();
    lastCounted = null;
    if (batch.length === 0) return null;
    return store.addUsage(batch).then(
      () => {},
      (error: unknown) => onError(error, "usage"),
    );
  }, intervalMs);

  return {
    count(account_id, environment, cycle_id) {
      // Requests come in runs of one account: the last increment is tried before the map.
      const last = lastCounted;
      if (
        last !== null &&
        last.account_id === account_id &&
        last.environment === environment &&
        last.cycle_id === cycle_id
      ) {
        last.amount++;
      } else {
        const key = `${account_id}|${environment}|${cycle_id}`;
        let seen = pending.get(key);
        if (seen) seen.amount++;
        else {
          seen = { account_id, environment, cycle_id, metric: "api_requests", amount: 1 };
          pending.set(key, seen);
        }
        lastCounted = seen;
      }
      batches.added();
    },
    flush: batches.flush,
  };
}
