// Validation of what the image functions take. Looks stored on timers were
// validated by core already; the bounds here protect the renderer itself (pixel
// counts, frame counts, text lengths) whoever calls it.
import {
  DEFAULT_ENDED,
  IMAGE_SIZE,
  type ImageInput,
  type Look,
  snapHeight,
  snapWidth,
  type UploadedFont,
} from "@tminus/core";
import { resolveLookOption } from "./_look";
import type { Variant } from "./colors";
import { invalid } from "./errors";

/** Bounds of the image options, at 1x (a 2x image doubles width and height). */
export const IMAGE_LIMITS = Object.freeze({
  minWidth: IMAGE_SIZE.minWidth,
  maxWidth: IMAGE_SIZE.maxWidth,
  minHeight: IMAGE_SIZE.minHeight,
  maxHeight: IMAGE_SIZE.maxHeight,
  /** Widths and given heights are drawn at the nearest multiple of this (see snapWidth). */
  sizeStep: IMAGE_SIZE.step,
  minFrames: 1,
  maxFrames: 60,
  maxEndedText: 200,
});

// Snapping is core's (`snapWidth`, `snapHeight`), shared with callers that key on sizes.

// The input itself is core's (`imageInputOf` builds it from a timer and its status).
export type { ImageInput };

/** An {@link ImageInput} checked and completed. */
export interface ResolvedInput {
  look: Look;
  /** Canonical JSON of the look: equal looks give equal keys. */
  lookKey: string;
  endedText: string;
  remaining: number;
  running: boolean;
  frames: number;
  /** Width and height at 1x, snapped; `scale` multiplies both. */
  width: number;
  height: number;
  scale: 1 | 2;
  variant: Variant;
  /** The uploaded font the look names, or null: the built-in font draws. */
  font: UploadedFont | null;
  /** The look's background picture (checked PNG or JPEG), or null: none passed (drawn without). */
  backgroundImage: { id: string; data: Uint8Array; type: "png" | "jpeg" } | null;
}

/** Checks every option and fills the defaults; throws RenderError naming the bad field. */
export function resolveInput(input: ImageInput): ResolvedInput {
  if (typeof input !== "object" || input === null) throw invalid("input", "must be an object");
  const { look, key } = resolveLookOption(input.look);
  const remaining = input.remainingSeconds;
  if (typeof remaining !== "number" || !Number.isFinite(remaining) || remaining < 0)
    throw invalid("remainingSeconds", "must be a finite number of seconds, 0 or more");
  const running = input.running ?? true;
  if (typeof running !== "boolean") throw invalid("running", "must be true or false");
  const endedText = input.ended?.text ?? DEFAULT_ENDED.text;
  if (typeof endedText !== "string" || endedText.length > IMAGE_LIMITS.maxEndedText)
    throw invalid(
      "ended.text",
      `must be a string of at most ${IMAGE_LIMITS.maxEndedText} characters`,
    );
  const L = IMAGE_LIMITS;
  const frames = int("frames", input.frames ?? 60, L.minFrames, L.maxFrames);
  const width = snapWidth(int("width", input.width ?? 600, L.minWidth, L.maxWidth));
  const height =
    input.height === undefined
      ? autoHeight(look)
      : snapHeight(int("height", input.height, L.minHeight, L.maxHeight));
  const scale = input.scale ?? 1;
  if (scale !== 1 && scale !== 2) throw invalid("scale", "must be 1 or 2");
  const variant = input.variant ?? "light";
  if (variant !== "light" && variant !== "dark") throw invalid("variant", "must be light or dark");
  const font = uploadedFont(input.font, look);
  return {
    font,
    backgroundImage: backgroundImage(input.backgroundImage, look),
    look,
    lookKey: key,
    endedText,
    remaining: Math.ceil(remaining),
    running,
    frames,
    width,
    height,
    scale,
    variant,
  };
}

/** The uploaded font, checked against the look that names it. */
function uploadedFont(font: ImageInput["font"], look: Look): UploadedFont | null {
  if (font === undefined) return null;
  if (typeof font !== "object" || font === null || !(font.data instanceof Uint8Array))
    throw invalid("font", "must be { id, data } with data a Uint8Array");
  if (look.font_asset_id === null || font.id !== look.font_asset_id)
    throw invalid("font.id", "must be the look's font_asset_id");
  return font;
}

/** The background picture, checked against the look that names it. */
function backgroundImage(
  picture: ImageInput["backgroundImage"],
  look: Look,
): ResolvedInput["backgroundImage"] {
  if (picture === undefined) return null;
  if (typeof picture !== "object" || picture === null || !(picture.data instanceof Uint8Array))
    throw invalid("backgroundImage", "must be { id, data } with data a Uint8Array");
  if (look.background?.type !== "image" || picture.id !== look.background.asset_id)
    throw invalid("backgroundImage.id", "must be the look's background.asset_id");
  const d = picture.data;
  const png = d[0] === 0x89 && d[1] === 0x50 && d[2] === 0x4e && d[3] === 0x47;
  const jpeg = d[0] === 0xff && d[1] === 0xd8 && d[2] === 0xff;
  if (!png && !jpeg) throw invalid("backgroundImage.data", "must be a PNG or JPEG file");
  return { id: picture.id, data: d, type: png ? "png" : "jpeg" };
}

/** Room for the digits and, when shown, the labels: 160 px for the default 48 px font. */
function autoHeight(look: Look): number {
  const h = Math.round(look.font_size * (look.show_labels ? 10 / 3 : 2.5));
  return Math.min(IMAGE_LIMITS.maxHeight, Math.max(IMAGE_LIMITS.minHeight, h));
}

function int(field: string, value: unknown, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max)
    throw invalid(field, `must be an integer from ${min} to ${max}`);
  return value;
}
