// Rendering off the caller's event loop. A server that draws images on the thread
// that answers its API stalls every request while an atlas is built or a burst of
// images is encoded. A pool runs a fixed number of worker threads, each with its
// own renderer and caches, and holds at most `maxQueue` waiting jobs: beyond that
// it refuses at once (RenderError "queue_full"), which a server answers with 503
// and Retry-After instead of letting work pile up in memory.
import { availableParallelism } from "node:os";
import { Worker, type WorkerOptions } from "node:worker_threads";
import { startDefaultWorker } from "./default-worker";
import { RenderError } from "./errors";
import type { ImageCacheStats, ImageRendererOptions } from "./image";
import { type ImageInput, resolveInput } from "./options";
import type { RenderThreadOptions, RenderThreadReply, RenderThreadRequest } from "./worker";

/** Options of {@link createRenderPool}. */
export interface RenderPoolOptions {
  /** Worker threads. Default: one less than the CPUs (at least 1, at most 4). */
  threads?: number;
  /**
   * Jobs that may wait for a free thread, beyond those being rendered. When as
   * many wait, the next request is refused with RenderError "queue_full". Default 64.
   */
  maxQueue?: number;
  /** The Retry-After hint, in seconds, on "queue_full" errors. Default 1. */
  retryAfterSeconds?: number;
  /** Byte budgets of each thread's caches (see {@link ImageRendererOptions}). */
  cache?: Pick<ImageRendererOptions, "atlasBytes" | "frameBytes">;
  /**
   * Render the default look once in each thread at start, so the first request
   * finds the fonts read and satori ready. Default true. {@link RenderPool.ready}
   * resolves when every thread is done with it.
   */
  warm?: boolean;
  /**
   * Replace a thread with a fresh one once it has built `afterAtlases` atlases
   * (new looks or sizes) and then stayed idle for `idleMs`. A thread's heap and
   * native memory grow with every atlas it builds and are not all given back
   * when its caches let go of them; a fresh thread starts from the baseline. The
   * replacement takes jobs at once. Default { afterAtlases: 64, idleMs: 10000 };
   * false never replaces threads.
   */
  recycle?: { afterAtlases?: number; idleMs?: number } | false;
  /**
   * How much lower than the caller's thread the render threads run, as a nice
   * increment (0 to 19; Linux gives each thread its own nice value). When the cores
   * are all busy, a storm of new images then takes what the API's thread leaves,
   * instead of half of it. Elsewhere the threads run at the caller's priority.
   * Default 10.
   */
  niceness?: number;
  /** V8 heap limit of each thread in MB (`resourceLimits.maxOldGenerationSizeMb`). Default: Node's. */
  maxHeapMb?: number;
  /**
   * The worker script. Default: `worker.js` next to this module in dist/ (an ES module,
   * for the CommonJS build too), found from the sources too (tests) once built. Set it
   * when a bundler moved the package's files.
   */
  workerScript?: string | URL;
}

/** Counters of a pool, for health checks and metrics. */
export interface RenderPoolStats {
  threads: number;
  /** Threads rendering now. */
  busy: number;
  /** Jobs waiting for a thread. */
  queued: number;
  maxQueue: number;
  /** Images rendered since the pool started. */
  rendered: number;
  /** Requests refused because the queue was full. */
  refused: number;
  /** Threads that stopped unexpectedly and were replaced. */
  restarts: number;
  /** Threads replaced after building many atlases (see `recycle`). */
  recycled: number;
}

/** A bounded pool of render threads. */
export interface RenderPool {
  /** The animated GIF, rendered on a pool thread (same input and bytes as `renderGif`). */
  renderGif(input: ImageInput): Promise<Uint8Array>;
  /** The still PNG, rendered on a pool thread (same input and bytes as `renderPng`). */
  renderPng(input: ImageInput): Promise<Uint8Array>;
  /** Resolves when every thread has started (and warmed, unless `warm: false`). */
  readonly ready: Promise<void>;
  stats(): RenderPoolStats;
  /** What each thread's caches hold now, and its V8 heap (`heapUsed`, `external`). */
  cacheStats(): Promise<Array<ImageCacheStats & { heapUsed: number; external: number }>>;
  /**
   * Terminates the threads. Waiting and running jobs are rejected with
   * RenderError "pool_closed", as is every later request.
   */
  close(): Promise<void>;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface Job extends Pending {
  id: number;
  kind: "gif" | "png";
  input: ImageInput;
}

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
  /** The job it renders, or null when idle. */
  job: Job | null;
  /** Requests sent and not yet answered (the job and stats requests). */
  pending: Map<number, Pending>;
}

/**
 * Starts one render thread: the package's own script (see default-worker.ts), or a caller's.
 * A caller's is started through `Reflect.construct`, which bundlers' file tracers do not
 * follow: `new Worker(x)` with an `x` they cannot evaluate is taken as "any file next to this
 * module", type declarations included, and fails a Next.js build (the caller ships that file).
 */
function startWorker(script: string | URL | undefined, options: WorkerOptions): Worker {
  if (script === undefined) return startDefaultWorker(options);
  return Reflect.construct(Worker, [script, options]) as Worker;
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
  const threadOptions: RenderThreadOptions = {
    cache: options.cache ?? {},
    warm: options.warm ?? true,
    niceness: niceness(options.niceness ?? 10),
  };

  const threads: Thread[] = [];
  const queue: Job[] = [];
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
      ...(options.maxHeapMb
        ? { resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb } }
        : {}),
    });
    const thread: Thread = {
      worker,
      started: false,
      ready: false,
      atlasBuilds: 0,
      recycleTimer: null,
      job: null,
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
    worker.on("message", (message: RenderThreadReply) => {
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
      if (thread.job?.id === message.id) {
        thread.job = null;
        next(thread);
        if (thread.job === null) scheduleRecycle(thread);
      }
    });
    const stopped = (reason: string) => {
      const error = new RenderError("render_failed", `a render thread stopped: ${reason}`);
      failStart(error);
      for (const waiting of thread.pending.values()) waiting.reject(error);
      thread.pending.clear();
      thread.job = null;
      const at = threads.indexOf(thread);
      if (closed || at < 0) return;
      if (!thread.started) {
        // Its script never ran (not found, not loadable): starting it again would only
        // fail again, as fast as it can. Without threads the pool refuses work.
        threads.splice(at, 1);
        if (threads.length === 0) {
          broken = error;
          for (const job of queue.splice(0)) job.reject(error);
        }
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
      if (thread.job?.id === request.id) {
        thread.job = null;
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
      if (closed || at < 0 || thread.job !== null || thread.pending.size > 0) return;
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
    thread.job = job;
    send(thread, { id: job.id, kind: job.kind, input: job.input }, job);
  }

  function next(thread: Thread): void {
    const job = queue.shift();
    if (job) run(thread, job);
  }

  function submit(kind: "gif" | "png", input: ImageInput): Promise<Uint8Array> {
    if (closed) return Promise.reject(closedError());
    if (broken) return Promise.reject(broken);
    try {
      resolveInput(input);
    } catch (err) {
      return Promise.reject(err);
    }
    return new Promise<Uint8Array>((resolve, reject) => {
      const job: Job = {
        id: nextId++,
        kind,
        input,
        resolve: resolve as (value: unknown) => void,
        reject,
      };
      const idle = threads.find((t) => t.job === null);
      if (idle) run(idle, job);
      else if (queue.length < maxQueue) queue.push(job);
      else {
        counters.refused++;
        reject(queueFull(maxQueue, retryAfterSeconds));
      }
    });
  }

  for (let i = 0; i < threadCount; i++) threads.push(start());
  const ready = Promise.all(readiness).then(() => undefined);
  // Observed here so a thread failing at start is no unhandled rejection; callers
  // that await `ready` still see it.
  ready.catch(() => undefined);

  return {
    renderGif: (input) => submit("gif", input),
    renderPng: (input) => submit("png", input),
    ready,
    stats() {
      return {
        threads: threads.length,
        busy: threads.filter((t) => t.job !== null).length,
        queued: queue.length,
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
              send(thread, { id: nextId++, kind: "stats" }, { resolve, reject });
            }),
        ),
      ) as ReturnType<RenderPool["cacheStats"]>;
    },
    async close() {
      if (closed) return;
      closed = true;
      const error = closedError();
      for (const job of queue.splice(0)) job.reject(error);
      for (const thread of threads) {
        if (thread.recycleTimer) clearTimeout(thread.recycleTimer);
        for (const waiting of thread.pending.values()) waiting.reject(error);
        thread.pending.clear();
        thread.job = null;
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

/**
 * The parent's Node options a thread takes: those that change how modules resolve
 * and how errors and warnings read. A thread inherits every option by default, and
 * many make its start fail (`--input-type` of `node -e`, V8 flags like `--expose-gc`);
 * the heap limit is `maxHeapMb`.
 */
function threadExecArgv(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (
      /^--(enable-source-maps|preserve-symlinks|no-deprecation|no-warnings|trace-warnings)$/.test(
        arg,
      )
    )
      out.push(arg);
    else if (/^--conditions=/.test(arg)) out.push(arg);
    else if ((arg === "--conditions" || arg === "-C") && i + 1 < argv.length)
      out.push(arg, argv[++i]!);
  }
  return out;
}

function closedError(): RenderError {
  return new RenderError("pool_closed", "the render pool is closed");
}

function positiveInt(value: number, field: string): number {
  if (!Number.isInteger(value) || value < 1)
    throw new RenderError("validation_error", `${field} must be an integer, 1 or more`, field);
  return value;
}

/**
 * The refusal, without a stack trace: a storm makes hundreds a second on the caller's
 * event loop, a stack costs about 80 us each there, and this one always points here.
 */
function queueFull(maxQueue: number, retryAfterSeconds: number): RenderError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new RenderError(
      "queue_full",
      `the render queue is full (${maxQueue} waiting); try again in ${retryAfterSeconds} s`,
      undefined,
      { retryAfterSeconds },
    );
  } finally {
    Error.stackTraceLimit = limit;
  }
}

function niceness(value: number): number {
  if (!Number.isInteger(value) || value < 0 || value > 19)
    throw new RenderError(
      "validation_error",
      "niceness must be an integer from 0 to 19",
      "niceness",
    );
  return value;
}
