/**
 * Rendered images in memory, bounded by bytes. Each distinct image (equal keys are equal
 * pictures: the key holds the remaining second) is rendered at most once however many
 * requests ask at the same time: concurrent requests share one promise, and later ones within
 * the same second are served from memory.
 */
export function createImageCache(maxBytes = 16 * 1024 * 1024) {
  const done = new Map<string, Uint8Array>();
  const inFlight = new Map<string, Promise<Uint8Array>>();
  let bytes = 0;
  // For metrics; read when scraped.
  const counts = { hits: 0, coalesced: 0, misses: 0 };

  const evict = () => {
    // Map keeps insertion order and hits are re-inserted: the first entries are the coldest.
    for (const [key, kept] of done) {
      if (bytes <= maxBytes) break;
      done.delete(key);
      bytes -= kept.byteLength;
    }
  };

  return {
    /** The image for `key`, rendering it with `render` only when neither kept nor running. */
    get(key: string, render: () => Promise<Uint8Array>): Promise<Uint8Array> {
      const hit = done.get(key);
      if (hit) {
        counts.hits++;
        done.delete(key);
        done.set(key, hit);
        return Promise.resolve(hit);
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
          done.set(key, rendered);
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
