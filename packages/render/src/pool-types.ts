// The public shape of a render pool: its options, its counters and its methods. Kept apart
// from pool.ts so the pool's machinery reads on its own.
import type { ImageCacheStats, ImageRendererOptions } from "./image";
import type { ImageInput } from "./options";

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
   * V8 young generation of each thread in MB (`resourceLimits.maxYoungGenerationSizeMb`).
   * Default: Node's (up to 48 MB a thread). A thread rendering new looks and sizes fills its young
   * generation to the limit before collecting it, so each thread's peak grows by about this much.
   */
  maxYoungHeapMb?: number;
  /**
   * A full garbage collection in a thread after every this many new atlases (new looks or
   * sizes), and a young-generation one (about 1 ms) after every other image that built atlases.
   * An atlas's buffers and resvg's trees are memory V8 does not see, so it collects them only
   * once tens of MB piled up; under a memory budget a thread gives them back at once. Default 0:
   * left to V8.
   */
  collectAfterAtlases?: number;
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
  /** Jobs waiting: for a thread, or in a thread's hands behind the one it renders. */
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

/** Per call options of a pool's render methods. */
export interface PoolRenderOptions {
  /**
   * Aborting it takes the job back while no thread has started it (it waits in the queue or in
   * a thread's port): the call rejects with RenderError "cancelled". A job a thread started
   * finishes as usual. For a caller that can draw the image itself, or no longer needs it.
   */
  signal?: AbortSignal;
  /**
   * Ahead of every waiting job, and taken even when `maxQueue` jobs wait (up to
   * {@link URGENT_MAX_QUEUE} urgent ones more): for a one-frame stand-in that a request needs
   * now because its full image was refused or is late, on a pool with no thread of its own for
   * those.
   */
  urgent?: boolean;
}

/** Urgent jobs (see {@link PoolRenderOptions.urgent}) that may wait beyond `maxQueue`. */
export const URGENT_MAX_QUEUE = 1024;

/** A bounded pool of render threads. */
export interface RenderPool {
  /** The animated GIF, rendered on a pool thread (same input and bytes as `renderGif`). */
  renderGif(input: ImageInput, options?: PoolRenderOptions): Promise<Uint8Array>;
  /** The still PNG, rendered on a pool thread (same input and bytes as `renderPng`). */
  renderPng(input: ImageInput, options?: PoolRenderOptions): Promise<Uint8Array>;
  /** Resolves when every thread has started (and warmed, unless `warm: false`). */
  readonly ready: Promise<void>;
  stats(): RenderPoolStats;
  /**
   * What each thread's caches hold now, its V8 heap (`heapUsed`, `external`) and the full and
   * young-generation collections `collectAfterAtlases` made.
   */
  cacheStats(): Promise<
    Array<
      ImageCacheStats & {
        heapUsed: number;
        external: number;
        collections: number;
        youngCollections: number;
      }
    >
  >;
  /**
   * Terminates the threads. Waiting and running jobs are rejected with
   * RenderError "pool_closed", as is every later request.
   */
  close(): Promise<void>;
}
