import type { RequestLogEntry, Store } from "@tminus/store";

/** Collects request-log entries and writes them in small batches. */
export interface RequestLog {
  add(entry: RequestLogEntry): void;
  /** Writes everything pending; resolves when it is stored. */
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

  const write = async () => {
    const batch = pending;
    pending = [];
    scheduled = null;
    if (batch.length === 0) return;
    try {
      await store.logRequests(batch);
    } catch (error) {
      onError(error, batch[0]!.request_id);
    }
  };

  return {
    add(entry) {
      pending.push(entry);
      scheduled ??= new Promise<void>((resolve) => setImmediate(resolve)).then(write);
    },
    async flush() {
      if (scheduled) await scheduled;
      else await write();
    },
  };
}
