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
 * A write this soon after the last commit ended, when that commit held more than one job, is
 * part of a concurrent stream and waits for company. (A client writing one at a time never
 * gets company: its writes never wait.)
 */
const BUSY_WITHIN_MS = 2;

/**
 * Group commit: every write job queued in one event-loop turn runs in ONE immediate
 * transaction. Under concurrent load the per-request writes (rate counters, request log,
 * creates) share a commit instead of paying one each, which is most of what a write costs.
 * Jobs run in arrival order; each stays atomic on its own (a job that throws is rolled back
 * and rejects alone, see `flush`). The transaction is IMMEDIATE, so the guarantees hold
 * across processes sharing the file. Jobs must be pure functions of the database: a failed
 * batch runs them again.
 *
 * Under concurrent writes (the last commit held several jobs and ended less than
 * BUSY_WITHIN_MS ago) a batch waits one more turn of the event loop before it commits, so the
 * requests already waiting in the sockets join it:
 * a commit costs about twice a create's own work, and without the wait each turn of the event
 * loop committed the one or two creates that had arrived in it (bench/README.md, "Creates
 * with an Idempotency-Key"). A lone write, and a client writing one at a time, commit in the same turn
 * as before. A job still resolves only after its commit.
 */
export function groupCommit(
  db: SqliteDatabase,
  options: {
    /** Hears each commit: how many jobs it held and whether its batch waited for company. */
    onCommit?: (jobs: number, waited: boolean) => void;
  } = {},
): GroupWrite {
  let queue: Pending[] = [];
  let scheduled = false;
  let lastCommitEnd = Number.NEGATIVE_INFINITY;
  let lastCommitJobs = 0;
  // Set while a batch waits its extra turn: for onCommit.
  let waiting = false;
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
    const waited = waiting;
    waiting = false;
    const jobs = queue;
    queue = [];
    lastCommitJobs = jobs.length;
    try {
      commit(jobs);
    } finally {
      lastCommitEnd = performance.now();
      options.onCommit?.(jobs.length, waited);
    }
  };
  const commit = (jobs: Pending[]) => {
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
        if (lastCommitJobs > 1 && performance.now() - lastCommitEnd < BUSY_WITHIN_MS) {
          waiting = true;
          // One more turn of the loop: its poll phase takes in the requests already waiting.
          setImmediate(() => setImmediate(flush));
        } else {
          // setImmediate runs after the poll phase: every request that arrived in this turn of
          // the event loop has queued its writes by then.
          setImmediate(flush);
        }
      }
    });

  return Object.assign(write, { drain: flush });
}
