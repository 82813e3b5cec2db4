// A published timer's background picture (look.background.asset_id), as its images and pages
// use it: read once per timer revision and kept (bounded). A picture deleted since is none: the
// look's background_color draws instead.
import { createHash } from "node:crypto";
import { timerData } from "@tminus/core";
import type { Store, TimerRecord } from "@tminus/store";
import type { ReadCache } from "../guards/read-cache";

/** A timer's background picture, ready to draw and to serve. */
export interface TimerPicture {
  /** The asset's id (the look's `background.asset_id`). */
  id: string;
  /** The file as uploaded: PNG or JPEG. */
  data: Uint8Array;
  contentType: "image/png" | "image/jpeg";
  /** The file's SHA-256, short: the `v` of its URL. */
  version: string;
}

/** The background pictures of published timers, by timer revision (bounded). */
export interface UploadedImages {
  /** The timer's picture, or null: its look names none, or the picture is gone. */
  forTimer(timer: TimerRecord): Promise<TimerPicture | null>;
  readonly size: number;
}

/** Keeps the pictures of the last `max` timer revisions asked for. */
export function createUploadedImages(store: Store, cache: ReadCache, max = 64): UploadedImages {
  const made = new Map<string, Promise<TimerPicture | null>>();
  return {
    async forTimer(timer) {
      const { look } = timerData(timer).definition;
      const background = look.background ?? null;
      if (background?.type !== "image") return null;
      const id = background.asset_id;
      // A deleted picture is seen from the next turn on, on every process (the read cache).
      const asset = await cache.findAsset(timer.account_id, timer.environment, id);
      if (asset?.kind !== "image") return null;
      const key = `${timer.id}|${timer.revision}|${id}`;
      let picture = made.get(key);
      if (!picture) {
        picture = store.getAssetData(timer.account_id, timer.environment, id).then((data) =>
          data
            ? {
                id,
                data,
                contentType: data[0] === 0x89 ? ("image/png" as const) : ("image/jpeg" as const),
                version: createHash("sha256").update(data).digest("hex").slice(0, 16),
              }
            : null,
        );
        if (made.size >= max) made.clear();
        made.set(key, picture);
        picture.catch(() => {
          if (made.get(key) === picture) made.delete(key);
        });
      }
      return picture;
    },
    get size() {
      return made.size;
    },
  };
}
