import { availableParallelism } from "node:os";
import type { ImageInput, RenderPool, RenderPoolOptions, RenderPoolStats } from "@tminus/render";
import type { RenderConfig } from "../config";
import { serverThreads } from "../memory-budget";
import { loadRender } from "./render-module";

/** Renders email images for the public routes: on a pool of threads, or inline. */
export interface ImageRenderer {
  /**
   * The image, drawn on the pool (or inline). Aborting `signal` withdraws it while no thread has
   * started it: the promise then rejects (RenderError "cancelled"). Inline drawing ignores it.
   */
  render(
    kind: "gif" | "png",
    input: ImageInput,
    signal?: AbortSignal,
    urgent?: boolean,
  ): Promise<Uint8Array>;
  /**
   * Starts the pool now and resolves once each thread has drawn the default look, so the
   * first image a client asks for finds fonts read and an atlas built. Inline rendering
   * (`render.threads: 0`) has nothing to start.
   */
  prepare(): Promise<void>;
  /** Stops the pool's threads (after the requests in flight are answered). */
  close(): Promise<void>;
  /** The pool's counters, or null before it started (and with inline rendering). */
  poolStats(): RenderPoolStats | null;
  /** Images drawn so far, by kind (for metrics). */
  readonly rendered: { gif: number; png: number };
}

/**
 * Images are drawn on a bounded pool of worker threads (`render.threads`), so a storm of new
 * images never holds up the API on the event loop; the pool is started on the first image.
 * `render.threads: 0` draws inline, on the event loop (small deployments, tests).
 */
export function createImageRenderer(config: RenderConfig): ImageRenderer {
  let pool: Promise<RenderPool> | undefined;
  let started: RenderPool | null = null;
  const rendered = { gif: 0, png: 0 };
  const poolOf = () => {
    pool ??= loadRender().then((r) => {
      started = r.createRenderPool({
        threads: config.threads ?? serverThreads(availableParallelism()),
        maxQueue: config.max_queue,
        cache: {
          atlasBytes: config.atlas_cache_mb * 1024 * 1024,
          frameBytes: config.frame_cache_mb * 1024 * 1024,
        },
        ...threadLimits(config),
      });
      return started;
    });
    return pool;
  };
  return {
    async render(kind, input, signal, urgent) {
      let bytes: Uint8Array;
      if (config.threads === 0) {
        const r = await loadRender();
        bytes = await (kind === "gif" ? r.renderGif(input) : r.renderPng(input));
      } else {
        const p = await poolOf();
        const options = { ...(signal ? { signal } : {}), ...(urgent ? { urgent } : {}) };
        bytes = await (kind === "gif" ? p.renderGif(input, options) : p.renderPng(input, options));
      }
      rendered[kind]++;
      return bytes;
    },
    poolStats: () => started?.stats() ?? null,
    rendered,
    async prepare() {
      if (config.threads === 0) return;
      await (await poolOf()).ready;
    },
    async close() {
      // A pool that never started (the renderer is not installed) has nothing to stop.
      const started = await pool?.catch(() => null);
      await started?.close();
    },
  };
}

/** Under a memory budget, a thread collects in full after this many new atlases (young in between). */
export const BUDGET_FULL_COLLECTION_ATLASES = 8;

/**
 * A render thread's V8 limits, and under a memory budget an earlier recycling (a thread that
 * built 8 atlases, new looks or sizes, and then idles 10 s is replaced by a fresh one, so what a
 * storm of new sizes grew is given back; without a budget: after 64, as before) and a collection
 * after each new atlas (its dead buffers given back at once, not tens of MB later).
 */
export function threadLimits(
  config: RenderConfig,
): Pick<RenderPoolOptions, "maxHeapMb" | "maxYoungHeapMb" | "recycle" | "collectAfterAtlases"> {
  return {
    ...(config.thread_heap_mb ? { maxHeapMb: config.thread_heap_mb } : {}),
    ...(config.thread_young_mb ? { maxYoungHeapMb: config.thread_young_mb } : {}),
    ...(config.memory_mb
      ? { recycle: { afterAtlases: 8 }, collectAfterAtlases: BUDGET_FULL_COLLECTION_ATLASES }
      : {}),
  };
}

/** Whether rendering was refused because the pool's queue is full. */
export function isQueueFull(error: unknown): error is Error & { retryAfterSeconds?: number } {
  return (error as { code?: string } | null)?.code === "queue_full";
}
