// One figure for a container's memory (`render.memory_mb`, `tminus serve --memory-mb`), turned
// into the settings that decide how much a server holds: render threads (each a V8 isolate with
// satori, resvg and the fonts), their heap limits, every byte-bounded cache and the render
// queue. Without a budget the fixed defaults stand (docs/configuration.md, "A memory budget").
//
// The constants are measured, not guessed (bench/README.md, "server-storm.mjs"): `tminus serve`
// at rest without render threads holds about 120 MB; a warm render thread about 55 MB more, and
// a storm of new sizes grows a thread by up to its V8 heap limit plus its young generation
// before a collection brings it back. A thread's share is therefore its rest, its heap limit and
// its young generation, rounded up.

/** What `tminus serve` holds at rest without render threads (event loop, SQLite, HTTP), in MB. */
export const PROCESS_SHARE_MB = 120;
/** One render thread: its rest (55 MB), V8 heap limit and young generation, rounded up, in MB. */
export const THREAD_SHARE_MB = 130;
/** The V8 heap limit (old generation) of each render thread under a budget, in MB. */
export const THREAD_HEAP_MB = 64;
/** The V8 young generation of each render thread under a budget, in MB. */
export const THREAD_YOUNG_MB = 8;
/** The smallest budget: the process, one render thread and the smallest caches (270 MB). */
export const MIN_MEMORY_MB = 272;
/** The largest budget accepted (64 GiB). */
export const MAX_MEMORY_MB = 65_536;

/** The settings a budget decides, with the share of it each one takes. */
export interface MemoryPlan {
  /** The budget itself, in MB. */
  memory_mb: number;
  /** Render threads of the pool (never more than the automatic count for `cpus`). */
  threads: number;
  /** Whether stills have a render thread of their own (else they go first on the pool's). */
  still_thread: boolean;
  /** V8 heap limit of each render thread, in MB. */
  thread_heap_mb: number;
  /** V8 young generation of each render thread, in MB. */
  thread_young_mb: number;
  atlas_cache_mb: number;
  frame_cache_mb: number;
  image_cache_mb: number;
  still_cache_mb: number;
  max_queue: number;
  /** How the budget is shared, in MB: the parts add up to at most `memory_mb`. */
  shares: {
    process: number;
    render_threads: number;
    still_thread: number;
    image_cache: number;
    still_cache: number;
    /** What is left for a storm's requests, answers in flight and the allocator's slack. */
    headroom: number;
  };
}

/**
 * The server's render threads by default: one per core, at most 4. They run at nice 10, below
 * the event loop, so they take only what the API leaves; one less than the cores (the old
 * default) left a core idle while a burst of new images queued (on 2 cores: half the machine).
 */
export function serverThreads(cores: number): number {
  return Math.max(1, Math.min(4, Math.floor(cores)));
}

const clamp = (x: number, low: number, high: number) => Math.min(high, Math.max(low, x));

/** The settings the shares of a budget depend on (a budget's own, or ones given next to it). */
export interface BudgetedSettings {
  memory_mb: number;
  threads: number;
  still_thread: boolean;
  image_cache_mb: number;
  still_cache_mb: number;
}

/**
 * How a budget is shared by the settings in force, in MB: the plan's shares when every setting
 * is the budget's own, and what settings given next to it take when not (`headroom` is then
 * what is left, 0 when they take more than the budget).
 */
export function budgetShares(settings: BudgetedSettings): MemoryPlan["shares"] {
  const renderThreads = settings.threads * THREAD_SHARE_MB;
  const stillThread = settings.still_thread && settings.threads > 0 ? THREAD_SHARE_MB : 0;
  const used =
    PROCESS_SHARE_MB +
    renderThreads +
    stillThread +
    settings.image_cache_mb +
    settings.still_cache_mb;
  return {
    process: PROCESS_SHARE_MB,
    render_threads: renderThreads,
    still_thread: stillThread,
    image_cache: settings.image_cache_mb,
    still_cache: settings.still_cache_mb,
    headroom: Math.max(0, settings.memory_mb - used),
  };
}

/**
 * The settings of a server given `memoryMb` of memory on `cpus` CPUs: one render thread at
 * least, more while each fits (up to the automatic count, `autoThreads`), a still thread of its
 * own only when one more thread fits too, and caches and the queue in proportion to the budget
 * up to today's defaults (all reached at about 1,100 MB).
 */
export function memoryPlan(memoryMb: number, autoThreads: number): MemoryPlan {
  const atlas = clamp(Math.round(memoryMb * 0.03), 4, 32);
  const frame = clamp(Math.round(memoryMb * 0.01), 2, 8);
  const image = clamp(Math.round(memoryMb * 0.04), 4, 16);
  const still = clamp(Math.round(memoryMb * 0.01), 1, 4);
  const forThreads = memoryMb - PROCESS_SHARE_MB - image - still;
  const fits = Math.floor(forThreads / THREAD_SHARE_MB);
  const threads = clamp(fits, 1, Math.max(1, autoThreads));
  const stillThread = fits > threads;
  return {
    memory_mb: memoryMb,
    threads,
    still_thread: stillThread,
    thread_heap_mb: THREAD_HEAP_MB,
    thread_young_mb: THREAD_YOUNG_MB,
    atlas_cache_mb: atlas,
    frame_cache_mb: frame,
    image_cache_mb: image,
    still_cache_mb: still,
    max_queue: clamp(Math.round(memoryMb / 8), 16, 64),
    shares: budgetShares({
      memory_mb: memoryMb,
      threads,
      still_thread: stillThread,
      image_cache_mb: image,
      still_cache_mb: still,
    }),
  };
}
