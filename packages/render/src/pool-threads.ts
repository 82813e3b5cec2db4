// What the pool needs around its threads, apart from its scheduling: how a thread starts and
// with which Node options, the checks of the pool's options, and the errors it rejects with.
import { Worker, type WorkerOptions } from "node:worker_threads";
import { startDefaultWorker } from "./default-worker";
import { RenderError } from "./errors";

/**
 * Starts one render thread: the package's own script (see default-worker.ts), or a caller's.
 * A caller's is started through `Reflect.construct`, which bundlers' file tracers do not
 * follow: `new Worker(x)` with an `x` they cannot evaluate is taken as "any file next to this
 * module", type declarations included, and fails a Next.js build (the caller ships that file).
 */
export function startWorker(script: string | URL | undefined, options: WorkerOptions): Worker {
  if (script === undefined) return startDefaultWorker(options);
  return Reflect.construct(Worker, [script, options]) as Worker;
}

/**
 * The parent's Node options a thread takes: those that change how modules resolve
 * and how errors and warnings read. A thread inherits every option by default, and
 * many make its start fail (`--input-type` of `node -e`, V8 flags like `--expose-gc`);
 * the heap limit is `maxHeapMb`.
 */
export function threadExecArgv(argv: readonly string[]): string[] {
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

export function cancelledError(): RenderError {
  return new RenderError("cancelled", "the render was cancelled before a thread started it");
}

export function closedError(): RenderError {
  return new RenderError("pool_closed", "the render pool is closed");
}

export function positiveInt(value: number, field: string): number {
  if (!Number.isInteger(value) || value < 1)
    throw new RenderError("validation_error", `${field} must be an integer, 1 or more`, field);
  return value;
}

/**
 * The refusal, without a stack trace: a storm makes hundreds a second on the caller's
 * event loop, a stack costs about 80 us each there, and this one always points here.
 */
export function queueFull(maxQueue: number, retryAfterSeconds: number): RenderError {
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

export function niceness(value: number): number {
  if (!Number.isInteger(value) || value < 0 || value > 19)
    throw new RenderError(
      "validation_error",
      "niceness must be an integer from 0 to 19",
      "niceness",
    );
  return value;
}
