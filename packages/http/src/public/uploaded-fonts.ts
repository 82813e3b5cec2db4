// A published timer's uploaded font, as its images and pages use it: the file cut down to what
// the timer draws (digits, separator, labels, ended text, name), made once per timer revision
// and kept. A font deleted since is no font: the look's built-in font draws instead.
import { createHash } from "node:crypto";
import { type Look, timerData } from "@tminus/core";
import type { Environment, Store, TimerRecord } from "@tminus/store";
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
  /**
   * The font `look` names, cut down to what it draws with `endedText` and `name` (a look not
   * saved yet: the dashboard's preview), or null: none, or not a font of that environment.
   */
  forLook(
    scope: { account_id: string; environment: Environment },
    look: Look,
    text: { endedText?: string; name?: string },
  ): Promise<TimerFont | null>;
  readonly size: number;
}

/** Keeps the fonts of the last `max` timer revisions asked for. */
export function createUploadedFonts(store: Store, cache: ReadCache, max = 256): UploadedFonts {
  const made = new Map<string, Promise<TimerFont | null>>();

  async function make(
    scope: { account_id: string; environment: Environment },
    id: string,
    look: Look,
    text: { endedText?: string; name?: string },
  ): Promise<TimerFont | null> {
    const data = await store.getAssetData(scope.account_id, scope.environment, id);
    if (!data) return null;
    const render = await loadRender();
    const file = render.inspectFont(data);
    const chars = render.lookFontText(look, {
      endedText: text.endedText,
      more: (text.name ?? "") + (look.cta?.label ?? ""),
    });
    const subset = await render.subsetFont(file.sfnt, chars);
    return {
      id,
      data: subset,
      contentType: file.sfnt[0] === 0x4f ? "font/otf" : "font/ttf",
      version: createHash("sha256").update(subset).digest("hex").slice(0, 16),
      widestEm: file.widestEm(`${render.DIGITS}${look.separator}`),
    };
  }

  /** `key`'s font, made once; a failure is not kept, so the next request tries again. */
  function once(key: string, build: () => Promise<TimerFont | null>): Promise<TimerFont | null> {
    let font = made.get(key);
    if (!font) {
      font = build();
      // A full map starts over, as the read cache does: refilling is one read each.
      if (made.size >= max) made.clear();
      made.set(key, font);
      font.catch(() => {
        if (made.get(key) === font) made.delete(key);
      });
    }
    return font;
  }

  /** Whether the id is a font of the environment still (asked on every request, from memory). */
  async function present(scope: { account_id: string; environment: Environment }, id: string) {
    const asset = await cache.findAsset(scope.account_id, scope.environment, id);
    return asset?.kind === "font";
  }

  return {
    async forTimer(timer) {
      const { definition } = timerData(timer);
      const id = definition.look.font_asset_id ?? null;
      // A deleted font is seen from the next turn on, on every process.
      if (id === null || !(await present(timer, id))) return null;
      return once(`${timer.id}|${timer.revision}|${id}`, () =>
        make(timer, id, definition.look, { endedText: definition.ended?.text, name: timer.name }),
      );
    },
    async forLook(scope, look, text) {
      const id = look.font_asset_id ?? null;
      if (id === null || !(await present(scope, id))) return null;
      const key = createHash("sha256")
        .update(JSON.stringify([scope.account_id, scope.environment, id, look, text]))
        .digest("hex");
      return once(key, () => make(scope, id, look, text));
    },
    get size() {
      return made.size;
    },
  };
}
