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

/**
 * Entries are written after the response is built, batched per event-loop turn: one store
 * transaction for all requests finished in the same turn keeps the log off the latency path
 * while losing at most one turn's entries on a hard crash.
 */
export function createRequestLog(
  store: Store,
  onError: (error: unknown, requestId: string) => void,
): RequestLog {
  let pending: RequestLogEntry[] = [];
  let scheduled: Promise<void> | null = null;
  // Batches handed to the store and not yet committed. `scheduled` is cleared when a batch
  // leaves `pending`, so without this set a flush during a slow commit would return early.
  const writing = new Set<Promise<void>>();

  const write = (): Promise<void> => {
    const batch = pending;
    pending = [];
    scheduled = null;
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
      scheduled ??= new Promise<void>((resolve) => setImmediate(resolve)).then(write);
    },
    async flush() {
      const inFlight = [...writing];
      await (scheduled ?? write());
      await Promise.all(inFlight);
    },
  };
}
