import type { RequestLogEntry, Store } from "@tminus/store";

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
  let scheduled: ReturnType<typeof setTimeout> | null = null;
  // Batches handed to the store and not yet committed. `scheduled` is cleared when a batch
  // leaves `pending`, so without this set a flush during a slow commit would return early.
  const writing = new Set<Promise<void>>();

  const write = (): Promise<void> => {
    if (scheduled) clearTimeout(scheduled);
    scheduled = null;
    const batch = pending;
    pending = [];
    if (batch.length === 0) return Promise.resolve();
    const done = store.logRequests(batch).then(
      () => {},
      (error: unknown) => onError(error, batch[0]!.request_id),
    );
    writing.add(done);
    void done.finally(() => writing.delete(done));
    return done;
  };

  return {
    add(entry) {
      pending.push(entry);
      if (pending.length >= BATCH_MAX) void write();
      else if (!scheduled) {
        scheduled = setTimeout(write, intervalMs);
        // Shutdown flushes explicitly; an idle timer must not keep the process alive.
        scheduled.unref?.();
      }
    },
    async flush() {
      const inFlight = [...writing];
      await write();
      await Promise.all(inFlight);
    },
  };
}
