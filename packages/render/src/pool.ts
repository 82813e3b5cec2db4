// Rendering off the caller's event loop. A server that draws images on the thread
// that answers its API stalls every request while an atlas is built or a burst of
// images is encoded. A pool runs a fixed number of worker threads, each with its
// own renderer and caches, and holds at most `maxQueue` waiting jobs: beyond that
// it refuses at once (RenderError "queue_full"), which a server answers with 503
// and Retry-After instead of letting work pile up in memory.
//
// Each thread is handed its next jobs while it renders one (THREAD_PIPELINE in its hands), so it
// never sits idle for the round trip of "done" to the caller's event loop and the next job back
// (about a third of a 0.35 ms image on a quiet core: bench/README.md), and it sends finished
// images back two to a message, since each message costs both threads a wake-up (worker.ts).
// A job waiting in a thread's port is not lost to the others: before a thread starts a job it
// claims it in a shared array, and until then an idle thread (or the caller, through `signal`)
// may take it.
import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";
import { RenderError } from "./errors";
import { type ImageInput, resolveInput } from "./options";
import {
  cancelledError,
  closedError,
  niceness,
  positiveInt,
  queueFull,
  startWorker,
  threadExecArgv,
} from "./pool-threads";
import { type RenderPool, type RenderPoolOptions, URGENT_MAX_QUEUE } from "./pool-types";
import type { RenderThreadOptions, RenderThreadReply, RenderThreadRequest } from "./worker";

export {
  type PoolRenderOptions,
  type RenderPool,
  type RenderPoolOptions,
  type RenderPoolStats,
  URGENT_MAX_QUEUE,
} from "./pool-types";

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface Job extends Pending {
  id: number;
  kind: "gif" | "png";
  urgent: boolean;
  input: ImageInput;
  /** The thread it was sent to (null while it waits in the pool's queue). */
  thread: Thread | null;
  /** Its place in the claims array while sent. */
  slot: number;
  /** Stops listening to the caller's signal. */
  release(): void;
}

/**
 * Jobs a thread holds at once: the one it renders and the next ones, waiting in its port. A
 * thread sends finished jobs back up to half of these at a time (`THREAD_BATCH`), and gets
 * as many new ones while it renders the rest.
 */
export const THREAD_PIPELINE = 4;
const THREAD_BATCH = THREAD_PIPELINE / 2;

interface Thread {
  worker: Worker;
  /** Its script is running (it said so): one that dies later is replaced, one that never started is not. */
  started: boolean;
  /** Warmed and waiting for work. */
  ready: boolean;
  /** Atlases it built, as it last reported. */
  atlasBuilds: number;
  /** Set while it waits, idle, to be replaced. */
  recycleTimer: NodeJS.Timeout | null;
  /** The jobs sent to it, in order: the first it renders (or is about to), the rest wait in its port. */
  jobs: Job[];
  /** Requests sent and not yet answered (the job and stats requests). */
  pending: Map<number, Pending>;
}

/**
 * A pool of render threads with a bounded queue. Inputs are checked on the
 * caller's thread (a bad one rejects at once, RenderError "validation_error");
 * rendering happens on a pool thread. A thread that dies is replaced; its job is
 * rejected with "render_failed".
 * @example
 * const pool = createRenderPool({ threads: 2, maxQueue: 64 });
 * try {
 *   const gif = await pool.renderGif({ remainingSeconds: 3600, look: timer.look });
 * } catch (err) {
 *   if (err instanceof RenderError && err.code === "queue_full")
 *     return new Response(null, { status: 503, headers: { "retry-after": String(err.retryAfterSeconds) } });
 *   throw err;
 * }
 * await pool.close(); // at shutdown
 */
export function createRenderPool(options: RenderPoolOptions = {}): RenderPool {
  const threadCount = positiveInt(
    options.threads ?? Math.max(1, Math.min(4, availableParallelism() - 1)),
    "threads",
  );
  const maxQueue = options.maxQueue ?? 64;
  if (!Number.isInteger(maxQueue) || maxQueue < 0)
    throw new RenderError("validation_error", "maxQueue must be an integer, 0 or more", "maxQueue");
  const retryAfterSeconds = options.retryAfterSeconds ?? 1;
  // One slot per job that can be in a thread's hands at once. A sent job's slot holds its id; the
  // thread swaps in -id when it starts it, and the pool swaps in 0 to take it back first.
  const claims = new Int32Array(new SharedArrayBuffer(4 * threadCount * THREAD_PIPELINE));
  const freeSlots = Array.from({ length: threadCount * THREAD_PIPELINE }, (_, i) => i);
  const threadOptions: RenderThreadOptions = {
    cache: options.cache ?? {},
    warm: options.warm ?? true,
    niceness: niceness(options.niceness ?? 10),
    batch: THREAD_BATCH,
    claims,
    collectAfterAtlases: options.collectAfterAtlases ?? 0,
  };

  const threads: Thread[] = [];
  // Urgent jobs wait at the front, in the order they came; `urgentWaiting` counts them.
  const queue: Job[] = [];
  let urgentWaiting = 0;
  let nextId = 1;
  let closed = false;
  let broken: RenderError | null = null;
  const counters = { rendered: 0, refused: 0, restarts: 0, recycled: 0 };
  const recycle =
    options.recycle === false
      ? null
      : { afterAtlases: 64, idleMs: 10_000, ...(options.recycle ?? {}) };
  const readiness: Array<Promise<void>> = [];

  function start(): Thread {
    const worker = startWorker(options.workerScript, {
      name: "tminus-render",
      workerData: threadOptions,
      execArgv: threadExecArgv(process.execArgv),
      resourceLimits: {
        ...(options.maxHeapMb ? { maxOldGenerationSizeMb: options.maxHeapMb } : {}),
        ...(options.maxYoungHeapMb ? { maxYoungGenerationSizeMb: options.maxYoungHeapMb } : {}),
      },
    });
    const thread: Thread = {
      worker,
      started: false,
      ready: false,
      atlasBuilds: 0,
      recycleTimer: null,
      jobs: [],
      pending: new Map(),
    };
    // A thread keeps the process alive while it starts and while a request is in
    // flight; an idle pool does not (see idle()).
    let signalReady: () => void = () => undefined;
    let failStart: (error: Error) => void = () => undefined;
    readiness.push(
      new Promise<void>((resolve, reject) => {
        signalReady = resolve;
        failStart = reject;
      }),
    );
    const answer = (message: RenderThreadReply) => {
      if (message.type === "started") {
        thread.started = true;
        return;
      }
      if (message.type === "ready") {
        thread.ready = true;
        idle(thread);
        signalReady();
        return;
      }
      const waiting = thread.pending.get(message.id);
      if (!waiting) return;
      thread.pending.delete(message.id);
      if (message.type === "failed") {
        const { code, message: text, field } = message.error;
        waiting.reject(new RenderError(code, text, field));
      } else if (message.type === "done") {
        counters.rendered++;
        thread.atlasBuilds = message.atlasBuilds;
        waiting.resolve(message.bytes);
      } else {
        waiting.resolve(message.stats);
      }
      idle(thread);
      const at = thread.jobs.findIndex((job) => job.id === message.id);
      if (at >= 0) {
        settle(thread.jobs[at]!);
        thread.jobs.splice(at, 1);
        next(thread);
      }
      // After any answer, stats included: a recycle timer that fired while a stats request was
      // out gave up, and this re-arms it.
      if (thread.jobs.length === 0) scheduleRecycle(thread);
    };
    // Several finished jobs come as one list (see RenderThreadOptions.batch).
    worker.on("message", (message: RenderThreadReply | RenderThreadReply[]) => {
      if (Array.isArray(message)) for (const one of message) answer(one);
      else answer(message);
    });
    const stopped = (reason: string) => {
      const error = new RenderError("render_failed", `a render thread stopped: ${reason}`);
      failStart(error);
      // Jobs it had not started go back to the front of the queue; the one it was rendering fails.
      for (const job of [...thread.jobs].reverse()) if (withdraw(job)) requeue(job);
      for (const waiting of thread.pending.values()) waiting.reject(error);
      thread.pending.clear();
      for (const job of thread.jobs.splice(0)) settle(job);
      const at = threads.indexOf(thread);
      if (closed || at < 0) return;
      if (!thread.started) {
        // Its script never ran (not found, not loadable): starting it again would only
        // fail again, as fast as it can. Without threads the pool refuses work.
        threads.splice(at, 1);
        if (threads.length === 0) {
          broken = error;
          urgentWaiting = 0;
          for (const job of queue.splice(0)) job.reject(error);
        }
        for (const other of threads) next(other);
        return;
      }
      counters.restarts++;
      threads[at] = start();
      next(threads[at]!);
    };
    worker.on("error", (err) => stopped(err.message));
    worker.on("exit", (code) => {
      if (threads.includes(thread)) stopped(`exit code ${code}`);
    });
    return thread;
  }

  function send(thread: Thread, request: RenderThreadRequest, pending: Pending): void {
    thread.pending.set(request.id, pending);
    thread.worker.ref();
    try {
      thread.worker.postMessage(request);
    } catch (err) {
      // Not plain data (a function, a symbol): nothing a thread could render.
      thread.pending.delete(request.id);
      idle(thread);
      pending.reject(
        new RenderError(
          "validation_error",
          `input must be plain data: ${(err as Error).message}`,
          "input",
        ),
      );
      const at = thread.jobs.findIndex((job) => job.id === request.id);
      if (at >= 0) {
        settle(thread.jobs[at]!);
        thread.jobs.splice(at, 1);
        next(thread);
      }
    }
  }

  /** A started thread with nothing awaited from it no longer keeps the process alive. */
  function idle(thread: Thread): void {
    if (thread.ready && thread.pending.size === 0) thread.worker.unref();
  }

  /** An idle thread that built many atlases is replaced if it stays idle a while. */
  function scheduleRecycle(thread: Thread): void {
    if (!recycle || thread.atlasBuilds < recycle.afterAtlases || thread.recycleTimer) return;
    thread.recycleTimer = setTimeout(() => {
      thread.recycleTimer = null;
      const at = threads.indexOf(thread);
      if (closed || at < 0 || thread.jobs.length > 0 || thread.pending.size > 0) return;
      counters.recycled++;
      // The replacement is in place before the old thread goes: no job waits for it.
      threads[at] = start();
      void thread.worker.terminate();
    }, recycle.idleMs);
    thread.recycleTimer.unref();
  }

  function run(thread: Thread, job: Job): void {
    if (thread.recycleTimer) {
      clearTimeout(thread.recycleTimer);
      thread.recycleTimer = null;
    }
    // A fresh id each time it is sent: a job taken back from one thread and sent to another must
    // not be claimable by the first, which may still read the old message.
    job.id = takeId();
    job.thread = thread;
    job.slot = freeSlots.pop()!;
    Atomics.store(claims, job.slot, job.id);
    thread.jobs.push(job);
    send(thread, { id: job.id, kind: job.kind, input: job.input, slot: job.slot }, job);
  }

  /** Ids of requests to the threads: positive 32-bit integers (a claim is the id or -id). */
  function takeId(): number {
    const id = nextId;
    nextId = nextId >= 0x7fff_ffff ? 1 : nextId + 1;
    return id;
  }

  /** The job left its thread (answered, taken back, or the thread stopped): its slot is free. */
  function settle(job: Job): void {
    if (job.thread === null) return;
    job.thread = null;
    Atomics.store(claims, job.slot, 0);
    freeSlots.push(job.slot);
  }

  /**
   * Takes a sent job back from its thread if the thread has not started it: true when taken
   * (the job is the caller's again), false when the thread has it.
   */
  function withdraw(job: Job): boolean {
    const thread = job.thread;
    if (thread === null || Atomics.compareExchange(claims, job.slot, job.id, 0) !== job.id)
      return false;
    thread.pending.delete(job.id);
    thread.jobs.splice(thread.jobs.indexOf(job), 1);
    settle(job);
    idle(thread);
    return true;
  }

  /** Fills a thread's free places: from the queue, else a job waiting in a busier thread's port. */
  function next(thread: Thread): void {
    while (thread.jobs.length < THREAD_PIPELINE && queue.length > 0) {
      const job = queue.shift()!;
      if (job.urgent) urgentWaiting--;
      run(thread, job);
    }
    if (thread.jobs.length > 0) return;
    for (const other of threads) {
      const last = other.jobs.at(-1);
      if (other !== thread && other.jobs.length > 1 && last && withdraw(last)) {
        run(thread, last);
        return;
      }
    }
  }

  /** A job taken back from a stopped thread goes first again: to the front of its kind. */
  function requeue(job: Job): void {
    if (job.urgent) {
      queue.unshift(job);
      urgentWaiting++;
    } else queue.splice(urgentWaiting, 0, job);
  }

  /** Jobs waiting: in the queue, and sent to a thread behind the one it renders. */
  function waiting(): number {
    let n = queue.length;
    for (const thread of threads) n += Math.max(0, thread.jobs.length - 1);
    return n;
  }

  function submit(
    kind: "gif" | "png",
    input: ImageInput,
    signal: AbortSignal | undefined,
    urgent = false,
  ): Promise<Uint8Array> {
    if (closed) return Promise.reject(closedError());
    if (broken) return Promise.reject(broken);
    if (signal?.aborted) return Promise.reject(cancelledError());
    try {
      resolveInput(input);
    } catch (err) {
      return Promise.reject(err);
    }
    return new Promise<Uint8Array>((resolve, reject) => {
      const job: Job = {
        id: 0,
        kind,
        urgent,
        input,
        thread: null,
        slot: -1,
        // Settled however it ends (rendered, failed, taken back, closed): the signal is let go.
        resolve: (value) => {
          job.release();
          resolve(value as Uint8Array);
        },
        reject: (error) => {
          job.release();
          reject(error);
        },
        release: () => undefined,
      };
      const free = threads.find((t) => t.jobs.length === 0);
      if (free) run(free, job);
      else if (urgent) {
        const behind = queue.length === 0 && threads.find((t) => t.jobs.length < THREAD_PIPELINE);
        if (behind) run(behind, job);
        else if (urgentWaiting < URGENT_MAX_QUEUE) {
          // Behind the urgent jobs already waiting, ahead of every other.
          queue.splice(urgentWaiting, 0, job);
          urgentWaiting++;
        } else {
          counters.refused++;
          job.reject(queueFull(URGENT_MAX_QUEUE, retryAfterSeconds));
          return;
        }
      } else if (waiting() < maxQueue) {
        const behind = threads.find((t) => t.jobs.length < THREAD_PIPELINE);
        if (behind) run(behind, job);
        else queue.push(job);
      } else {
        counters.refused++;
        job.reject(queueFull(maxQueue, retryAfterSeconds));
        return;
      }
      if (signal) {
        // Taken back while it waits (in the queue or in a thread's port); a job a thread
        // started finishes as usual.
        const cancel = () => {
          const queued = queue.indexOf(job);
          if (queued >= 0) {
            queue.splice(queued, 1);
            if (job.urgent) urgentWaiting--;
          } else if (!withdraw(job)) return;
          job.reject(cancelledError());
          const thread = threads.find((t) => t.jobs.length < THREAD_PIPELINE);
          if (thread) next(thread);
        };
        signal.addEventListener("abort", cancel, { once: true });
        job.release = () => signal.removeEventListener("abort", cancel);
      }
    });
  }

  for (let i = 0; i < threadCount; i++) threads.push(start());
  const ready = Promise.all(readiness).then(() => undefined);
  // Observed here so a thread failing at start is no unhandled rejection; callers
  // that await `ready` still see it.
  ready.catch(() => undefined);

  return {
    renderGif: (input, options) => submit("gif", input, options?.signal, options?.urgent),
    renderPng: (input, options) => submit("png", input, options?.signal, options?.urgent),
    ready,
    stats() {
      return {
        threads: threads.length,
        busy: threads.filter((t) => t.jobs.length > 0).length,
        queued: waiting(),
        maxQueue,
        ...counters,
      };
    },
    cacheStats() {
      if (closed) return Promise.reject(closedError());
      return Promise.all(
        threads.map(
          (thread) =>
            new Promise((resolve, reject) => {
              send(thread, { id: takeId(), kind: "stats" }, { resolve, reject });
            }),
        ),
      ) as ReturnType<RenderPool["cacheStats"]>;
    },
    async close() {
      if (closed) return;
      closed = true;
      const error = closedError();
      urgentWaiting = 0;
      for (const job of queue.splice(0)) job.reject(error);
      for (const thread of threads) {
        if (thread.recycleTimer) clearTimeout(thread.recycleTimer);
        for (const waiting of thread.pending.values()) waiting.reject(error);
        thread.pending.clear();
        for (const job of thread.jobs.splice(0)) settle(job);
      }
      const stopping = threads.splice(0).map((t) => t.worker.terminate());
      // A thread terminated before its script ran keeps nothing alive until its exit is
      // reported: a script whose last step is `await pool.close()` would end there, exit
      // code 13, with what follows never run.
      const alive = setInterval(() => undefined, 60_000);
      try {
        await Promise.all(stopping);
      } finally {
        clearInterval(alive);
      }
    },
  };
}
