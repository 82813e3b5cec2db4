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
 * Entries kept while the store does not take them (about 400 bytes each: 20 MB): past it,
 * entries are dropped and counted rather than holding the process's memory hostage to a
 * stalled database.
 */
export const REQUEST_LOG_MAX_PENDING = 50_000;

/**
 * Entries are written behind the responses, in batches: every `intervalMs` or every 500
 * entries, whichever comes first, one store write per batch (two at most in flight). GET
 * /usage/requests and shutdown flush first. A process killed with SIGKILL loses at most its
 * last batch of log rows (never a timer, and never a counter that admits requests). While the
 * store does not keep up, at most `maxPending` entries wait; further ones are dropped, and
 * `onDropped` hears how many once the store takes a batch again.
 */
export function createRequestLog(
  store: Store,
  onError: (error: unknown, requestId: string) => void,
  options: {
    intervalMs?: number;
    maxPending?: number;
    onDropped?: (entries: number) => void;
  } = {},
): RequestLog {
  const maxPending = options.maxPending ?? REQUEST_LOG_MAX_PENDING;
  let pending: RequestLogEntry[] = [];
  let dropped = 0;
  const batches = createBatchWriter(() => {
    const batch = pending;
    pending = [];
    if (batch.length === 0) return null;
    const lost = dropped;
    dropped = 0;
    return store.logRequests(batch).then(
      () => {
        if (lost > 0) options.onDropped?.(lost);
      },
      (error: unknown) => {
        if (lost > 0) options.onDropped?.(lost);
        onError(error, batch[0]!.request_id);
      },
    );
  }, options.intervalMs ?? 50);

  return {
    add(entry) {
      if (pending.length >= maxPending) {
        dropped++;
        return;
      }
      pending.push(entry);
      batches.added(pending.length >= BATCH_MAX);
    },
    flush: batches.flush,
  };
}
