import type { RequestLogEntry, Store } from "@tminus/store";
import { createBatchWriter } from "./batch-writer";

/** Collects request-log entries and writes them in small batches. */
export interface RequestLog {
  add(entry: RequestLogEntry): void;
  /**
   * Resolves once every entry added before the call is stored (or its write failed), including
   * batches already on their way to the store. GET /usage/requests awaits it, so a client
   * always sees its own earlier requests.
   */
  flush(): Promise<void>;
}

/** Entries written together at most: a batch is one multi-row write. */
const BATCH_MAX = 500;

/**
 * Entries are written behind the responses, in batches: every `intervalMs` or every 500
 * entries, whichever comes first, one store write per batch. GET /usage/requests and shutdown
 * flush first. A process killed with SIGKILL loses at most its last batch of log rows (never a
 * timer, and never a counter that admits requests).
 */
export function createRequestLog(
  store: Store,
  onError: (error: unknown, requestId: string) => void,
  intervalMs = 50,
): RequestLog {
  let pending: RequestLogEntry[] = [];
  const batches = createBatchWriter(() => {
    const batch = pending;
    pending = [];
    if (batch.length === 0) return null;
    return store.logRequests(batch).then(
      () => {},
      (error: unknown) => onError(error, batch[0]!.request_id),
    );
  }, intervalMs);

  return {
    add(entry) {
      pending.push(entry);
      batches.added(pending.length >= BATCH_MAX);
    },
    flush: batches.flush,
  };
}
