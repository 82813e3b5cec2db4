// What an email image shows, from a timer and where its countdown stands. The public image
// routes, the dashboard's preview and render's renderMany all draw a timer this way; the
// defaults live here once so the three cannot drift apart.
import type { Look, LookInput } from "../schema/look";
import type { TimerDefinition } from "../schema/timer";
import type { TimerStatusResult } from "../status/types";

/** An uploaded font as the renderer takes it: the one a look's `font_asset_id` names. */
export interface UploadedFont {
  /** The asset's id: must equal the look's `font_asset_id`. */
  id: string;
  /**
   * The font file, TrueType or OpenType (a WOFF unpacked): best cut down to what the look
   * draws first (render's `subsetFont` and `lookFontText`), since it travels with every image.
   */
  data: Uint8Array;
}

/** An uploaded picture as the renderer takes it: the one a look's `background.asset_id` names. */
export interface UploadedImage {
  /** The asset's id: must equal the look's `background.asset_id`. */
  id: string;
  /** The file as uploaded: PNG or JPEG. */
  data: Uint8Array;
}

/** What an email image shows and how big it is (the renderer's input). */
export interface ImageInput {
  /** Whole seconds left at the moment of the request (`status.remaining.total_seconds`); 0 is ended. */
  remainingSeconds: number;
  /** false while paused (or not started): every frame shows the same time. Default true. */
  running?: boolean;
  /** The timer's look, complete as stored or partial (missing fields take core's defaults). */
  look?: Look | LookInput;
  /** What shows after the end: the timer's `ended` (images draw its `text`). */
  ended?: { text?: string };
  /**
   * The uploaded font the look's `font_asset_id` names. Without it such a look draws with its
   * built-in `font`, as when the font was deleted.
   */
  font?: UploadedFont;
  /**
   * The uploaded picture the look's `background.asset_id` names (PNG or JPEG bytes). Without
   * it such a look draws `background_color` alone, as when the picture was deleted.
   */
  backgroundImage?: UploadedImage;
  /** Animated GIF only: 1..60 frames of one second. Default 60. */
  frames?: number;
  /** Width in CSS pixels, 100..1200, drawn at the nearest multiple of 20 (`snapWidth`). Default 600. */
  width?: number;
  /**
   * Height in CSS pixels, 40..600, drawn at the nearest multiple of 20. Default:
   * from the font size (160 for the default look), as it comes.
   */
  height?: number;
  /** 2 draws every pixel twice as dense (retina); the image is then 2x wide and high. */
  scale?: 1 | 2;
  /** "dark" draws the look's dark colours (when it has them). Default "light". */
  variant?: "light" | "dark";
}

/** How {@link imageInputOf} draws a timer beyond what the timer itself says. */
export interface ImageInputOptions
  extends Pick<ImageInput, "frames" | "width" | "height" | "scale" | "variant"> {
  /** Look fields laid over the timer's look, field by field. */
  look?: LookInput;
  /** Draw the ended look (no time left, still), whatever the status says. */
  showEnded?: boolean;
}

/**
 * The image of a timer at one moment: the time left and whether it runs come from the status,
 * the look and ended text from the definition (none: a bare countdown in the default look),
 * size and variant from the options. Undefined options keep the renderer's defaults.
 * @example
 * const status = computeStatus({ definition, clock }, now);
 * renderPng(imageInputOf(definition, status, { width: 1200 }));
 */
export function imageInputOf(
  definition: Pick<TimerDefinition, "look" | "ended"> | undefined,
  status: Pick<TimerStatusResult, "state" | "remaining">,
  options: ImageInputOptions = {},
): ImageInput {
  const ended = options.showEnded === true;
  return {
    remainingSeconds: ended ? 0 : status.remaining.total_seconds,
    running: !ended && status.state === "running",
    look: options.look === undefined ? definition?.look : { ...definition?.look, ...options.look },
    ended: definition?.ended,
    frames: options.frames,
    width: options.width,
    height: options.height,
    scale: options.scale,
    variant: options.variant,
  };
}
