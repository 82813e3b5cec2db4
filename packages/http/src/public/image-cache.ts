/**
 * Renders each distinct image at most once however many requests ask at the same time:
 * concurrent requests for one key share one promise, and the last few results stay in a small
 * LRU (a campaign's recipients with the same remaining second get the same bytes).
 */
export function createImageCache(maxEntries = 64) {
  const done = new Map<string, Uint8Array>();
  const inFlight = new Map<string, Promise<Uint8Array>>();

  return {
    /** The image for `key`, rendering it with `render` only when neither cached nor running. */
    get(key: string, render: () => Promise<Uint8Array>): Promise<Uint8Array> {
      const hit = done.get(key);
      if (hit) {
        // Refresh recency: Map keeps insertion order, so re-inserting moves it last.
        done.delete(key);
        done.set(key, hit);
        return Promise.resolve(hit);
      }
      const running = inFlight.get(key);
      if (running) return running;
      const promise = render().then(
        (bytes) => {
          inFlight.delete(key);
          done.set(key, bytes);
          if (done.size > maxEntries) done.delete(done.keys().next().value as string);
          return bytes;
        },
        (error: unknown) => {
          inFlight.delete(key);
          throw error;
        },
      );
      inFlight.set(key, promise);
      return promise;
    },
    /** Entries kept (for tests). */
    get size() {
      return done.size;
    },
  };
}

/** The cache returned by `createImageCache`. */
export type ImageCache = ReturnType<typeof createImageCache>;
