// The types of renderMany's jobs, options and results: what a build step writes against.
import type { LookInput, TimerCreateInput, TimerDefinition, TimerState } from "@tminus/core";
import type { Variant } from "./colors";
import type { RenderError } from "./errors";
import type { RenderPool } from "./pool-types";

/** An instant: epoch milliseconds, a `Date`, or ISO 8601 with `Z` or an offset. */
export type Instant = number | string | Date;

/** The image formats {@link renderMany} writes. */
export type ImageFormat = "gif" | "png";

/**
 * One image: whose countdown, as of when, and how it looks. Every field may also be given
 * once for all jobs in {@link RenderManyOptions}; a job's own value wins (its `look` is
 * laid over the options' look, field by field).
 */
export interface RenderJob {
  /**
   * The timer, as `POST /api/v1/timers` takes it (any of the four types), rendered as if
   * published at `now`. One object shared by many jobs is validated once. Without a timer,
   * the image counts down to `deadline`.
   */
  timer?: TimerCreateInput | TimerDefinition;
  /**
   * This recipient's deadline: where the countdown ends without a timer or with a fixed
   * timer (it replaces `deadline_at`), the viewer's deadline of a personalized timer whose
   * `personalization.source` is "deadline".
   */
  deadline?: Instant;
  /**
   * This recipient's start: a duration timer counts `duration_seconds` from it (default:
   * `now`, the full length); a personalized timer with source "start" counts `offset_seconds`.
   */
  start?: Instant;
  /** The instant the image shows: frame 0 is the time left at `now`. */
  now?: Instant;
  /** "gif" (default): up to 60 one-second frames; "png": the first frame, still. */
  format?: ImageFormat;
  /** Look fields laid over the timer's look (partial; missing fields keep the timer's or the defaults). */
  look?: LookInput;
  /** GIF frames, 1..60. Default 60. */
  frames?: number;
  /** Width in CSS pixels, 100..1200. Default 600. */
  width?: number;
  /** Height in CSS pixels, 40..600. Default: from the font size (160 for the default look). */
  height?: number;
  /** 2 for retina (the image is twice as wide and high). Default 1. */
  scale?: 1 | 2;
  /** "dark" draws the look's dark colours. Default "light". */
  variant?: Variant;
}

/** Options of {@link renderMany}: defaults for every job, and how to run them. */
export interface RenderManyOptions extends RenderJob {
  /**
   * Jobs in flight at most: handed to the pool, or rendered and waiting to be taken
   * (in order, a fast job waits for a slow one before it). The next job is pulled from the
   * input only when one of these is taken. Default 16.
   */
  concurrency?: number;
  /**
   * true (default): results come in input order. false: as they finish (each carries its
   * `index`), so one slow image does not hold back the rest.
   */
  ordered?: boolean;
  /**
   * A pool to render on (shared with a server, say). It is not closed at the end; a
   * `queue_full` refusal is waited out and tried again, never reported. Default: a pool of
   * `threads` threads made for this call and closed when the results end.
   */
  pool?: RenderPool;
  /**
   * Threads of the pool made for this call. Default: from the idle cores. The caller's thread
   * starts rendering at once while the machine is watched for 150 ms (`measureThreads`: the
   * cores busy on the machine, less what this process itself used, from `os.cpus()` and
   * `process.cpuUsage()`); then `chooseThreads` starts one thread per idle core beyond the
   * caller's, at most 4: none on a busy machine, where the caller's thread renders alone.
   * 0: no pool, every image on the caller's thread. A number is an upper bound: never more
   * threads than CPUs (`os.availableParallelism()`), less one when the caller's thread renders
   * too, and at least one; a thread beyond those only slows the batch down.
   */
  threads?: number;
  /**
   * Render on the caller's thread too, beside the pool: while its threads start, whenever
   * they already have four jobs each (the pool falls behind), and, with nothing else to draw,
   * the jobs the pool has not started yet (taken back from a starved thread). The least CPU and the shortest
   * time for a build step or a CLI, where the thread has nothing else to do, and never slower
   * than the caller's thread alone; not for a server, whose event loop would stall for each
   * image (about half a millisecond, a few hundred for the first of a process): pass false
   * there. Default: true, unless `pool` is given (a pool shared with a server).
   */
  callerThread?: boolean;
}

/** A job that became an image. */
export interface RenderManyDone<J extends RenderJob = RenderJob> {
  ok: true;
  /** The job's position in the input, from 0. */
  index: number;
  /** The job as given (with whatever else the caller put in it). */
  job: J;
  format: ImageFormat;
  bytes: Uint8Array;
  /** Seconds left at `now`, as frame 0 shows them. */
  remainingSeconds: number;
  state: TimerState;
}

/** A job that did not: bad input (`error.code` "validation_error", `error.field` names it) or a failed render. */
export interface RenderManyFailed<J extends RenderJob = RenderJob> {
  ok: false;
  index: number;
  job: J;
  error: RenderError;
}

/** One result of {@link renderMany}, per job. */
export type RenderManyResult<J extends RenderJob = RenderJob> =
  | RenderManyDone<J>
  | RenderManyFailed<J>;
