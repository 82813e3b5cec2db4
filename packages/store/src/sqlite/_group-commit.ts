import type { SqliteDatabase } from "./database";

/** Queues a write job; resolves with its result once the batch holding it has committed. */
export type GroupWrite = (<T>(job: () => T) => Promise<T>) & {
  /** Commits whatever is queued now (before closing the database). */
  drain(): void;
};

interface Pending {
  job: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  value?: unknown;
}

/**
 * Group commit: every write job queued in one event-loop turn runs in ONE immediate
 * transaction. Under concurrent load the per-request writes (rate counters, request log,
 * creates) share a commit instead of paying one each, which is most of what a write costs.
 * Jobs run in arrival order; each stays atomic on its own (a job that throws is rolled back
 * and rejects alone, see `flush`). The transaction is IMMEDIATE, so the guarantees hold
 * across processes sharing the file. Jobs must be pure functions of the database: a failed
 * batch runs them again.
 */
export function groupCommit(db: SqliteDatabase): GroupWrite {
  let queue: Pending[] = [];
  let scheduled = false;
  // Fast path: the whole batch in one transaction without per-job savepoints (they cost as
  // much as the jobs). If any job throws, the batch rolls back and every job reruns in its
  // own transaction, so one failing job never takes the others with it.
  const batch = db.transaction((jobs: Pending[]) => {
    for (const p of jobs) p.value = p.job();
  });
  const single = db.transaction((p: Pending) => {
    p.value = p.job();
  });

  const flush = () => {
    if (!scheduled) return;
    scheduled = false;
    const jobs = queue;
    queue = [];
    try {
      batch.immediate(jobs);
      for (const p of jobs) p.resolve(p.value);
      return;
    } catch {
      // Fall through: rerun one by one to find out which job failed.
    }
    for (const p of jobs) {
      try {
        single.immediate(p);
        p.resolve(p.value);
      } catch (error) {
        p.reject(error);
      }
    }
  };

  const write = <T>(job: () => T) =>
    new Promise<T>((resolve, reject) => {
      queue.push({ job, resolve: resolve as (v: unknown) => void, reject });
      if (!scheduled) {
        scheduled = true;
        // setImmediate runs after the poll phase: every request that arrived in this turn of
        // the event loop has queued its writes by then.
        setImmediate(flush);
      }
    });

  return Object.assign(write, { drain: flush });
}
