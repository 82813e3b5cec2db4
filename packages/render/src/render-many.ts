// One image per recipient, for build steps and campaigns: thousands of personalized
// countdowns rendered on the pool's threads while the caller's event loop writes them
// out. Jobs are pulled from the caller's iterable only as places free up, so a list of
// a million recipients never sits in memory as a million promises or images.
import { availableParallelism, loadavg } from "node:os";
import {
  computeStatus,
  emptyClock,
  type ImageInput,
  imageInputOf,
  parseOffsetDateTime,
  statusFromTarget,
  type TimerCreateInput,
  type TimerDefinition,
  type TimerStatusResult,
  validateTimerCreate,
} from "@tminus/core";
import { invalid, RenderError } from "./errors";
import { createImageRenderer } from "./image";
import { createRenderPool, type RenderPool, THREAD_PIPELINE } from "./pool";
import type {
  ImageFormat,
  Instant,
  RenderJob,
  RenderManyOptions,
  RenderManyResult,
} from "./render-many-types";
import { chooseThreads, measureThreads } from "./threads";

export type {
  ImageFormat,
  Instant,
  RenderJob,
  RenderManyDone,
  RenderManyFailed,
  RenderManyOptions,
  RenderManyResult,
} from "./render-many-types";

const DEFAULT_CONCURRENCY = 16;

/**
 * Renders one image per job on a pool of worker threads and yields the results as they are
 * ready: in input order (default) or as they finish, each with its `index`. Never more than
 * `concurrency` jobs are in flight, and the input is read only as fast as results are taken.
 * A bad job is a failed result, not an exception; only an input that throws ends the stream
 * with its error. Breaking out of the loop stops reading and closes the pool made for it.
 * @example
 * const jobs = recipients.map((r) => ({ id: r.id, deadline: r.expires_at }));
 * for await (const result of renderMany(jobs, { now: sendAt, look: { theme: "dark" } })) {
 *   if (result.ok) await writeFile(`out/${result.job.id}.gif`, result.bytes);
 *   else console.error(`recipient ${result.job.id}: ${result.error.message}`);
 * }
 */
export async function* renderMany<J extends RenderJob>(
  jobs: Iterable<J> | AsyncIterable<J>,
  options: RenderManyOptions = {},
): AsyncGenerator<RenderManyResult<J>, void, undefined> {
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw invalid("concurrency", "must be an integer, 1 or more");
  const ordered = options.ordered ?? true;
  const now = instant(options.now ?? Date.now(), "now")!;
  const renderer = createDispatch(options, concurrency);
  const timers = new WeakMap<object, TimerDefinition | RenderError>();
  const source = iteratorOf(jobs);
  const inFlight = new Map<number, Promise<RenderManyResult<J>>>();
  let nextIndex = 0;
  let nextOut = 0;
  let exhausted = false;
  try {
    for (;;) {
      while (!exhausted && inFlight.size < concurrency) {
        const step = await source.next();
        if (step.done) {
          exhausted = true;
          break;
        }
        const index = nextIndex++;
        inFlight.set(index, renderOne(renderer, step.value, index, options, now, timers));
      }
      if (inFlight.size === 0) return;
      const result = ordered
        ? await inFlight.get(nextOut++)!
        : await Promise.race(inFlight.values());
      inFlight.delete(result.index);
      yield result;
    }
  } finally {
    if (!exhausted) await source.return?.();
    // Jobs still in flight (the caller stopped early) settle as failures nobody reads.
    await renderer.close();
  }
}

async function renderOne<J extends RenderJob>(
  renderer: Dispatch,
  job: J,
  index: number,
  options: RenderManyOptions,
  now: number,
  timers: WeakMap<object, TimerDefinition | RenderError>,
): Promise<RenderManyResult<J>> {
  try {
    if (typeof job !== "object" || job === null) throw invalid("job", "must be an object");
    const { input, format, status } = prepare(job, options, now, timers);
    const bytes = await renderer.render(format, input);
    return {
      ok: true,
      index,
      job,
      format,
      bytes,
      remainingSeconds: status.remaining.total_seconds,
      state: status.state,
    };
  } catch (err) {
    const error =
      err instanceof RenderError
        ? err
        : new RenderError("render_failed", `rendering failed: ${(err as Error)?.message ?? err}`);
    return { ok: false, index, job, error };
  }
}

/** Where the images of one renderMany call are drawn: its pool, the caller's thread, or both. */
interface Dispatch {
  render(format: ImageFormat, input: ImageInput): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** One image waiting to be drawn, here or on the pool. */
interface Task {
  format: ImageFormat;
  input: ImageInput;
  resolve(bytes: Uint8Array): void;
  reject(error: unknown): void;
}

/** A task handed to the pool; `controller` takes it back while no thread has started it. */
interface Handed {
  task: Task;
  controller: AbortController | null;
}

// The caller's thread and the pool draw from one line of tasks. The pool gets up to
// THREAD_PIPELINE tasks per thread (what keeps its threads busy: one rendering, the next ones in
// its port), the caller's thread takes the rest, one at a time. When the caller's thread has nothing left to draw, it
// takes back the oldest task the pool has not started: a pool that falls behind (its threads
// starved on a busy machine, at nice 10) never holds up the batch, so the default is never
// slower than the caller's thread alone.
function createDispatch(options: RenderManyOptions, concurrency: number): Dispatch {
  const callerThread = options.callerThread ?? options.pool === undefined;
  const threads = options.threads;
  if (threads !== undefined && (!Number.isInteger(threads) || threads < 0 || threads > 64))
    throw invalid("threads", "must be an integer from 0 to 64");
  const local = callerThread || (threads === 0 && !options.pool) ? createImageRenderer() : null;
  let pool: RenderPool | null = options.pool ?? null;
  let own: RenderPool | null = null;
  // Beside the caller's thread, a pool takes work once its threads are warm (the caller renders
  // meanwhile). Alone, it takes it at once: its first jobs warm it.
  let poolReady = local === null;
  let closed = false;
  const line: Task[] = [];
  const handed: Handed[] = [];
  const takenBack: Task[] = [];
  let drawing = false;

  const usePool = (p: RenderPool) => {
    pool = p;
    if (poolReady) return;
    // A pool that never starts leaves all the work to the caller's thread.
    p.ready.then(
      () => {
        poolReady = true;
        pump();
      },
      () => undefined,
    );
  };
  const startOwn = (n: number) => {
    own = createRenderPool({ threads: n, maxQueue: concurrency, warm: local !== null });
    usePool(own);
  };
  if (options.pool) usePool(options.pool);
  else if (threads !== undefined && threads > 0)
    startOwn(threadsThatPay(threads, availableParallelism(), local !== null));
  else if (threads === undefined) {
    // Without the caller's thread something must render from the start: no time to watch.
    if (local === null)
      startOwn(
        chooseThreads({ cores: availableParallelism(), busy: loadavg()[0] ?? 0, callerThread }),
      );
    // The caller's thread starts at once; the threads follow if the machine has idle cores,
    // judged over the first 150 ms (this process's own rendering meanwhile not counted).
    else
      void measureThreads(true).then((n) => {
        if (!closed && n > 0) startOwn(n);
      });
  }

  function hand(task: Task): void {
    const entry: Handed = { task, controller: local ? new AbortController() : null };
    handed.push(entry);
    submit(pool!, task.format, task.input, entry.controller?.signal).then(
      (bytes) => {
        handed.splice(handed.indexOf(entry), 1);
        task.resolve(bytes);
        pump();
      },
      (error: unknown) => {
        handed.splice(handed.indexOf(entry), 1);
        // Taken back: the caller's thread draws it next (never handed to the pool again).
        if (error instanceof RenderError && error.code === "cancelled") takenBack.push(task);
        else task.reject(error);
        pump();
      },
    );
  }

  function pump(): void {
    if (closed) return;
    const share =
      pool && poolReady ? (local ? pool.stats().threads * THREAD_PIPELINE : Infinity) : 0;
    while (line.length > 0 && handed.length < share) hand(line.shift()!);
    if (local === null || drawing) return;
    const task = takenBack.shift() ?? line.shift();
    if (task === undefined) {
      // Nothing left for this thread: take back the oldest task no thread has started. If a
      // thread has it, the signal does nothing, and the next answer comes back here.
      const waiting = handed.find((h) => h.controller && !h.controller.signal.aborted);
      waiting?.controller?.abort();
      return;
    }
    drawing = true;
    // A turn of the event loop between local renders: the pool's messages (its threads
    // started, a job done) must not wait for the whole batch.
    setImmediate(() => {
      (task.format === "png" ? local.png(task.input) : local.gif(task.input))
        .then(task.resolve, task.reject)
        .finally(() => {
          drawing = false;
          pump();
        });
    });
  }

  return {
    render(format, input) {
      return new Promise<Uint8Array>((resolve, reject) => {
        line.push({ format, input, resolve, reject });
        pump();
      });
    },
    async close() {
      closed = true;
      // Jobs still waiting (the caller stopped early) settle as failures nobody reads.
      for (const task of [...takenBack.splice(0), ...line.splice(0)])
        task.reject(new RenderError("pool_closed", "closed"));
      await own?.close();
      local?.clear();
    },
  };
}

/**
 * The threads a pool made for one call may have: what was asked, at most one per CPU the
 * process may use, less the one the caller's thread renders on when it renders too (at least
 * one). A thread beyond the cores only takes its share from the others and costs its start
 * (Node, fonts, the atlas: some half a second of CPU) on top: `threads: 2` beside the caller's
 * thread on two cores was slower than one thread (bench/README.md, issue 40).
 */
export function threadsThatPay(asked: number, cores: number, callerThread: boolean): number {
  const usable = Math.max(1, Math.floor(cores)) - (callerThread ? 1 : 0);
  return Math.max(1, Math.min(asked, usable));
}

/** A pool shared with others may be full for a moment: wait, then try again. */
async function submit(
  pool: RenderPool,
  format: ImageFormat,
  input: ImageInput,
  signal: AbortSignal | undefined,
) {
  for (let wait = 5; ; wait = Math.min(wait * 2, 250)) {
    try {
      const options = { signal };
      return await (format === "png"
        ? pool.renderPng(input, options)
        : pool.renderGif(input, options));
    } catch (err) {
      if (!(err instanceof RenderError) || err.code !== "queue_full") throw err;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/** The job's image input and the status it shows, checked; throws RenderError naming the field. */
function prepare(
  job: RenderJob,
  options: RenderManyOptions,
  defaultNow: number,
  timers: WeakMap<object, TimerDefinition | RenderError>,
): { input: ImageInput; format: ImageFormat; status: TimerStatusResult } {
  const pick = <K extends keyof RenderJob>(key: K): RenderJob[K] => job[key] ?? options[key];
  const format = pick("format") ?? "gif";
  if (format !== "gif" && format !== "png") throw invalid("format", "must be gif or png");
  const now = instant(job.now ?? defaultNow, "now")!;
  const timerInput = pick("timer");
  const timer = timerInput === undefined ? undefined : definitionOf(timerInput, timers);
  const deadline = instant(pick("deadline"), "deadline");
  const start = instant(pick("start"), "start");
  const status = statusOf(timer, deadline, start, now);
  const input = imageInputOf(timer, status, {
    look: { ...(options.look ?? {}), ...(job.look ?? {}) },
    frames: pick("frames"),
    width: pick("width"),
    height: pick("height"),
    scale: pick("scale"),
    variant: pick("variant"),
  });
  return { format, status, input };
}

/** Where the countdown stands at `now`; a deadline or start the timer cannot use is an error. */
function statusOf(
  timer: TimerDefinition | undefined,
  deadline: number | undefined,
  start: number | undefined,
  now: number,
): TimerStatusResult {
  const clock = { ...emptyClock(), published_at: now };
  const type = timer?.type;
  const source = timer?.type === "personalized" ? timer.personalization.source : undefined;
  const takesDeadline = type === undefined || type === "fixed" || source === "deadline";
  const takesStart = type === "duration" || source === "start";
  if (deadline !== undefined && !takesDeadline)
    throw invalid("deadline", `does not apply to a ${describe(timer!)}`);
  if (start !== undefined && !takesStart)
    throw invalid("start", `does not apply to ${timer ? `a ${describe(timer)}` : "a deadline"}`);
  if (timer === undefined) {
    if (deadline === undefined)
      throw invalid("deadline", "is required when no timer is given (or give a timer)");
    return statusFromTarget(deadline, clock, now);
  }
  if (timer.type === "fixed" && deadline !== undefined)
    return statusFromTarget(deadline, clock, now);
  return computeStatus(
    { definition: timer, clock, viewer: { deadline_at: deadline, start_at: start } },
    now,
  );
}

function describe(timer: TimerDefinition): string {
  return timer.type === "personalized"
    ? `personalized timer by ${timer.personalization.source}`
    : `${timer.type} timer`;
}

function definitionOf(
  timer: TimerCreateInput | TimerDefinition,
  cache: WeakMap<object, TimerDefinition | RenderError>,
): TimerDefinition {
  const key = typeof timer === "object" && timer !== null ? timer : null;
  let found = key ? cache.get(key) : undefined;
  if (!found) {
    const result = validateTimerCreate(timer);
    found = result.ok
      ? result.value
      : new RenderError(
          "validation_error",
          `timer: ${result.issues[0]!.message}`,
          `timer.${result.issues[0]!.field}`,
        );
    if (key) cache.set(key, found);
  }
  if (found instanceof RenderError) throw found;
  return found;
}

function instant(value: Instant | undefined, field: string): number | undefined {
  if (value === undefined) return undefined;
  const ms =
    typeof value === "number"
      ? value
      : value instanceof Date
        ? value.getTime()
        : typeof value === "string"
          ? parseOffsetDateTime(value)
          : null;
  if (ms === null || !Number.isFinite(ms))
    throw invalid(
      field,
      "must be an ISO 8601 date-time with Z or an offset, or epoch milliseconds",
    );
  return ms;
}

function iteratorOf<T>(items: Iterable<T> | AsyncIterable<T>): AsyncIterator<T> | Iterator<T> {
  if (items !== null && typeof items === "object") {
    if (Symbol.asyncIterator in items) return items[Symbol.asyncIterator]();
    if (Symbol.iterator in items) return items[Symbol.iterator]();
  }
  throw invalid("jobs", "must be an iterable or an async iterable");
}
