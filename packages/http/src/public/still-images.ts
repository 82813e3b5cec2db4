// The answer of an email image when the render pool is full: never a 503 (in an email that is
// a broken image for that open, forever) but one frame of the exact time left. A still costs
// one frame's composition and encoding instead of up to 60, is drawn on a lane of its own (one
// thread beside the pool, started by `prepare` or at the first still) and is kept by look, size
// and second, so a campaign's recipients at the same second share one.
import type { ImageInput, RenderPool, RenderPoolOptions } from "@tminus/render";
import { createImageCache } from "./image-cache";
import { isQueueFull } from "./image-renderer";
import { loadRender } from "./render-module";

/** Stills that may wait for the still lane's thread; past it they are drawn on the event loop. */
export const STILL_MAX_QUEUE = 1024;

/** The header that marks a degraded image answer, and its value for a still. */
export const DEGRADED_HEADER = "x-tminus-degraded";

/**
 * Single-frame stand-ins for images the render pool refused. `image(kind, input)` resolves with
 * the first frame of `input` (for a PNG, the PNG itself), drawn once per look, size, variant,
 * second and state, however many requests ask at once (coalesced, then kept, byte-bounded).
 */
export function createStillImages(options: {
  cacheBytes: number;
  atlasCacheBytes: number;
  /** How long a queued image may take before its still answers instead; 0: no limit. */
  maxWaitMs: number;
  /** The lane's thread's V8 limits and recycling (the pool's, see `threadLimits`). */
  limits?: Pick<
    RenderPoolOptions,
    "maxHeapMb" | "maxYoungHeapMb" | "recycle" | "collectAfterAtlases"
  >;
  /**
   * Draws a still ahead of every waiting image on the pool's threads, instead of on a lane
   * of its own (`render.still_thread: false`: a memory budget with room for one thread less).
   */
  onPool?: (kind: "gif" | "png", input: ImageInput) => Promise<Uint8Array>;
}) {
  const kept = createImageCache(options.cacheBytes);
  // For metrics: stills drawn on the event loop (the lane's queue was full too), and requests
  // answered with a still because their image waited longer than `maxWaitMs`.
  const figures = { inline: 0, late: 0 };
  let lane: Promise<RenderPool> | undefined;

  const laneOf = () => {
    lane ??= loadRender().then((r) =>
      r.createRenderPool({
        threads: 1,
        maxQueue: STILL_MAX_QUEUE,
        // At the caller's priority: the pool's threads run below it and may be starved on a busy
        // machine; a still is one frame, and it is what the recipient would otherwise not see.
        niceness: 0,
        cache: { atlasBytes: options.atlasCacheBytes, frameBytes: 1024 * 1024 },
        ...options.limits,
      }),
    );
    return lane;
  };

  async function draw(kind: "gif" | "png", input: ImageInput): Promise<Uint8Array> {
    try {
      if (options.onPool) return await options.onPool(kind, input);
      const pool = await laneOf();
      return await (kind === "gif" ? pool.renderGif(input) : pool.renderPng(input));
    } catch (error) {
      if (!isQueueFull(error)) throw error;
      // More distinct stills waiting than the lane holds: the last resort is the event loop,
      // which is slower for everyone but still no broken image.
      const r = await loadRender();
      figures.inline++;
      return kind === "gif" ? r.renderGif(input) : r.renderPng(input);
    }
  }

  /** The still of `input`: its first frame, one frame long. */
  function image(kind: "gif" | "png", input: ImageInput): Promise<Uint8Array> {
    const still: ImageInput = kind === "gif" ? { ...input, frames: 1 } : input;
    return kept.get(stillKey(kind, still), () => draw(kind, still));
  }

  return {
    image,
    /**
     * `full` (the image of `input` on its way from the pool), or the still of `input` when the
     * pool refused it (queue full) or, with `queued`, it is not there within `maxWaitMs`: an
     * email client gives up on an image that takes too long, and that is a broken image too.
     * `leave` is called when the still answers because `full` was late: this request no
     * longer waits for it.
     */
    async fullOrStill(
      kind: "gif" | "png",
      input: ImageInput,
      full: Promise<Uint8Array>,
      queued: boolean,
      leave: () => void = () => undefined,
    ): Promise<{ bytes: Uint8Array; still: boolean }> {
      let timer: NodeJS.Timeout | undefined;
      const late =
        queued && options.maxWaitMs > 0
          ? new Promise<null>((resolve) => {
              timer = setTimeout(resolve, options.maxWaitMs, null);
            })
          : null;
      try {
        const bytes = await (late ? Promise.race([full, late]) : full);
        if (bytes) return { bytes, still: false };
        // Nobody here waits for it any more: withdrawn, or drawn for the cache, or refused later.
        full.catch(() => undefined);
        leave();
        figures.late++;
      } catch (error) {
        if (!isQueueFull(error)) throw error;
      } finally {
        clearTimeout(timer);
      }
      return { bytes: await image(kind, input), still: true };
    },
    /** Stills drawn on the event loop, and stills answered because the image was late. */
    figures,
    /** Lookups of the still cache: kept, joined a still in flight, drawn. */
    cacheCounts: kept.counts,
    /** Stills kept now (entries and bytes), for the metrics. */
    cacheSize: () => ({ entries: kept.size, bytes: kept.bytes }),
    /** Starts the lane's thread now (warm), so the first burst does not wait for it. */
    async prepare(): Promise<void> {
      if (!options.onPool) await (await laneOf()).ready;
    },
    /** Stops the lane's thread, if it ever started. */
    async close() {
      const pool = await lane?.catch(() => null);
      await pool?.close();
    },
  };
}

/** The stills of one handler. */
export type StillImages = ReturnType<typeof createStillImages>;

// Everything a still depends on: the look (not the timer: timers that look alike share one),
// the ended text, size, variant, the second and the state.
function stillKey(kind: "gif" | "png", input: ImageInput): string {
  return JSON.stringify([
    kind,
    input.remainingSeconds,
    input.running ?? true,
    input.width ?? null,
    input.height ?? null,
    input.scale ?? 1,
    input.variant ?? "light",
    input.look ?? null,
    input.ended ?? null,
  ]);
}
