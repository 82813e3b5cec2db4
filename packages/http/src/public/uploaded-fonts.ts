// A published timer's uploaded font, as its images and pages use it: the file cut down to what
// the timer draws (digits, separator, labels, ended text, name), made once per timer revision
// and kept. A font deleted since is no font: the look's built-in font draws instead.
import { createHash } from "node:crypto";
import { timerData } from "@tminus/core";
import type { Store, TimerRecord } from "@tminus/store";
import type { ReadCache } from "../guards/read-cache";
import { loadRender } from "./render-module";

/** A timer's uploaded font, ready to draw and to serve. */
export interface TimerFont {
  /** The asset's id (the look's `font_asset_id`). */
  id: string;
  /** The subset, TrueType or OpenType. */
  data: Uint8Array;
  contentType: "font/ttf" | "font/otf";
  /** The subset's SHA-256, short: the `v` of its URL, so the URL changes when the bytes do. */
  version: string;
  /** The widest digit or separator in em, for the page's fit estimate. */
  widestEm: number;
}

/** The uploaded fonts of published timers, by timer revision (bounded). */
export interface UploadedFonts {
  /** The timer's font, or null: its look names none, or the font is gone. */
  forTimer(timer: TimerRecord): Promise<TimerFont | null>;
  readonly size: number;
}

/** Keeps the fonts of the last `max` timer revisions asked for. */
export function createUploadedFonts(store: Store, cache: ReadCache, max = 256): UploadedFonts {
  const made = new Map<string, Promise<TimerFont | null>>();

  async function make(timer: TimerRecord, id: string): Promise<TimerFont | null> {
    const data = await store.getAssetData(timer.account_id, timer.environment, id);
    if (!data) return null;
    const render = await loadRender();
    const file = render.inspectFont(data);
    const { definition } = timerData(timer);
    const look = definition.look;
    const text = render.lookFontText(look, {
      endedText: definition.ended?.text,
      more: timer.name + (look.cta?.label ?? ""),
    });
    const subset = await render.subsetFont(file.sfnt, text);
    return {
      id,
      data: subset,
      contentType: file.sfnt[0] === 0x4f ? "font/otf" : "font/ttf",
      version: createHash("sha256").update(subset).digest("hex").slice(0, 16),
      widestEm: file.widestEm(`${render.DIGITS}${look.separator}`),
    };
  }

  return {
    async forTimer(timer) {
      const id = timerData(timer).definition.look.font_asset_id ?? null;
      if (id === null) return null;
      // Asked on every request: a deleted font is seen from the next turn on, on every process.
      const asset = await cache.findAsset(timer.account_id, timer.environment, id);
      if (asset?.kind !== "font") return null;
      const key = `${timer.id}|${timer.revision}|${id}`;
      let font = made.get(key);
      if (!font) {
        font = make(timer, id);
        // A full map starts over, as the read cache does: refilling is one read each.
        if (made.size >= max) made.clear();
        made.set(key, font);
        // A failure is not kept: the next request tries again.
        font.catch(() => {
          if (made.get(key) === font) made.delete(key);
        });
      }
      return font;
    },
    get size() {
      return made.size;
    },
  };
}
