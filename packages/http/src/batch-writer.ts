// The request log, the usage meter and the public view counter all collect in memory and
// write behind the responses, in batches. When a batch leaves and how a flush waits for it
// is the same for the three, so it is written once, here.

/** When collected items are written: on a timer, when a batch is full, and on flush. */
export interface BatchWriter {
  /** Something was collected: written at once when `full`, else within the interval. */
  added(full?: boolean): void;
  /**
   * Resolves once everything collected before the call is stored (or its write failed),
   * including batches already on their way to the store.
   */
  flush(): Promise<void>;
}

/** Batches on their way to the store at once, per writer: a slow store gets no more. */
const MAX_IN_FLIGHT = 2;

/**
 * Schedules `writeBatch`, which takes what is pending and stores it: a promise that never
 * rejects (it reports its own failures), or null when nothing was pending. The timer is
 * unref'd: shutdown flushes explicitly, and an idle timer must not keep the process alive.
 * At most two batches are in flight: while the store is slow what was collected waits (and
 * is written as one batch once a write returns) instead of piling up as writes in flight,
 * so the caller's own bound on what it keeps is the whole bound. `flush` writes regardless.
 */
export function createBatchWriter(
  writeBatch: () => Promise<void> | null,
  intervalMs: number,
): BatchWriter {
  let scheduled: ReturnType<typeof setTimeout> | null = null;
  // Batches handed to the store and not yet committed. `scheduled` is cleared when a batch
  // leaves, so without this set a flush during a slow commit would return early.
  const writing = new Set<Promise<void>>();
  // Something was collected while MAX_IN_FLIGHT batches were out: written when one returns.
  let deferred = false;

  const write = (): Promise<void> => {
    if (scheduled) clearTimeout(scheduled);
    scheduled = null;
    deferred = false;
    const done = writeBatch();
    if (done === null) return Promise.resolve();
    writing.add(done);
    void done.finally(() => {
      writing.delete(done);
      if (deferred) void write();
    });
    return done;
  };
  const writeOrDefer = (): void => {
    if (writing.size >= MAX_IN_FLIGHT) {
      if (scheduled) clearTimeout(scheduled);
      scheduled = null;
      deferred = true;
    } else void write();
  };

  return {
    added(full = false) {
      if (full) writeOrDefer();
      else if (!scheduled && !deferred) {
        scheduled = setTimeout(writeOrDefer, intervalMs);
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
