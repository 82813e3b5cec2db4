/** An image kept in memory, and when it was rendered. */
interface Kept {
  bytes: Uint8Array;
  at: number;
}

/**
 * Rendered images in memory, bounded by bytes. Each distinct image (equal keys are equal
 * pictures: the key holds the remaining second) is rendered at most once however many
 * requests ask at the same time: concurrent requests share one promise, and later ones within
 * the same second are served from memory. The newest image of each family (the same timer and
 * options, any second) is kept too, as the stand-in when rendering is refused under load.
 */
export function createImageCache(maxBytes = 16 * 1024 * 1024) {
  const done = new Map<string, Kept>();
  const latest = new Map<string, Kept>();
  const inFlight = new Map<string, Promise<Uint8Array>>();
  let bytes = 0;
  // For metrics; read when scraped.
  const counts = { hits: 0, coalesced: 0, misses: 0 };

  const evict = () => {
    // Map keeps insertion order and hits are re-inserted: the first entries are the coldest.
    for (const [key, kept] of done) {
      if (bytes <= maxBytes) break;
      done.delete(key);
      bytes -= kept.bytes.byteLength;
    }
    if (latest.size > 4096) latest.clear();
  };

  return {
    /**
     * The image for `key`, rendering it with `render` only when neither kept nor running.
     * `family` names the images this one replaces as time passes (for `latestOf`).
     */
    get(
      key: string,
      family: string,
      render: () => Promise<Uint8Array>,
      now: number = Date.now(),
    ): Promise<Uint8Array> {
      const hit = done.get(key);
      if (hit) {
        counts.hits++;
        done.delete(key);
        done.set(key, hit);
        return Promise.resolve(hit.bytes);
      }
      const running = inFlight.get(key);
      if (running) {
        counts.coalesced++;
        return running;
      }
      counts.misses++;
      const promise = render().then(
        (rendered) => {
          inFlight.delete(key);
          const kept = { bytes: rendered, at: now };
          done.set(key, kept);
          latest.set(family, kept);
          bytes += rendered.byteLength;
          evict();
          return rendered;
        },
        (error: unknown) => {
          inFlight.delete(key);
          throw error;
        },
      );
      inFlight.set(key, promise);
      return promise;
    },
    /** The newest image of a family rendered at most `maxAgeMs` ago, or null. */
    latestOf(family: string, now: number, maxAgeMs: number): Uint8Array | null {
      const kept = latest.get(family);
      return kept && now - kept.at <= maxAgeMs ? kept.bytes : null;
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
