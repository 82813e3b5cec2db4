/**
 * Rendered images in memory, bounded by bytes. Each distinct image (equal keys are equal
 * pictures: the key holds the remaining second) is rendered at most once however many
 * requests ask at the same time: concurrent requests share one promise, and later ones within
 * the same second are served from memory. A request that stops waiting (its still answered
 * instead) says so with `leave`; when no request waits for a render any more, its signal is
 * aborted, so a pool withdraws the job if no thread has started it.
 */
export function createImageCache(maxBytes = 16 * 1024 * 1024) {
  const done = new Map<string, Uint8Array>();
  const inFlight = new Map<string, Running>();
  let bytes = 0;
  // For metrics; read when scraped.
  const counts = { hits: 0, coalesced: 0, misses: 0 };

  interface Running {
    promise: Promise<Uint8Array>;
    waiting: number;
    /** Null when the first request said no request would leave (no signal made: it costs). */
    controller: AbortController | null;
  }

  const evict = () => {
    // Map keeps insertion order and hits are re-inserted: the first entries are the coldest.
    for (const [key, kept] of done) {
      if (bytes <= maxBytes) break;
      done.delete(key);
      bytes -= kept.byteLength;
    }
  };

  const NOTHING_TO_LEAVE = () => undefined;

  /** The image kept for `key` (counted as a hit and made the freshest), or undefined. */
  function kept(key: string): Uint8Array | undefined {
    const hit = done.get(key);
    if (hit === undefined) return undefined;
    counts.hits++;
    done.delete(key);
    done.set(key, hit);
    return hit;
  }

  /**
   * The image for `key` and a way to stop waiting for it (see the cache's doc). `abortable`:
   * give a new render a signal (a request may leave it); without, leaving it aborts nothing.
   */
  function share(
    key: string,
    render: (signal?: AbortSignal) => Promise<Uint8Array>,
    abortable = true,
  ): { image: Promise<Uint8Array>; leave: () => void } {
    const hit = kept(key);
    if (hit) return { image: Promise.resolve(hit), leave: NOTHING_TO_LEAVE };
    let entry = inFlight.get(key);
    if (entry) counts.coalesced++;
    else {
      counts.misses++;
      const controller = abortable ? new AbortController() : null;
      let started: Running | undefined;
      // Still this render's entry (not left by every request and replaced meanwhile).
      const ours = () => started !== undefined && inFlight.get(key) === started;
      const promise = render(controller?.signal).then(
        (rendered) => {
          if (ours()) inFlight.delete(key);
          // A render left by every request may still finish (a thread had started it): kept.
          const before = done.get(key);
          if (before) bytes -= before.byteLength;
          done.delete(key);
          done.set(key, rendered);
          bytes += rendered.byteLength;
          evict();
          return rendered;
        },
        (error: unknown) => {
          if (ours()) inFlight.delete(key);
          throw error;
        },
      );
      started = { promise, waiting: 0, controller };
      inFlight.set(key, started);
      entry = started;
    }
    const shared = entry;
    shared.waiting++;
    let left = false;
    return {
      image: shared.promise,
      leave: () => {
        if (left) return;
        left = true;
        shared.waiting--;
        if (shared.waiting > 0 || !shared.controller || inFlight.get(key) !== shared) return;
        // Nobody waits: a request that comes now starts afresh rather than join a withdrawn job.
        inFlight.delete(key);
        shared.promise.catch(() => undefined);
        shared.controller.abort();
      },
    };
  }

  return {
    share,
    kept,
    /** The image for `key`, rendering it with `render` only when neither kept nor running. */
    get(key: string, render: () => Promise<Uint8Array>): Promise<Uint8Array> {
      return share(key, render, false).image;
    },
    /** Lookups so far: kept, joined a running render, or rendered. */
    counts,
    /** Entries kept (for tests and metrics). */
    get size() {
      return done.size;
    },
    /** Bytes kept (for tests and metrics). */
    get bytes() {
      return bytes;
    },
  };
}

/** The cache returned by `createImageCache`. */
export type ImageCache = ReturnType<typeof createImageCache>;
