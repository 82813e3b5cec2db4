// The sizes email images are drawn at. They live in core so that everything keyed by an
// image's size (the renderer's caches, an HTTP cache in front of it) snaps the same way
// without loading the renderer.

/** Bounds of an email image at 1x (a 2x image doubles both), and the step sizes snap to. */
export const IMAGE_SIZE = Object.freeze({
  minWidth: 100,
  maxWidth: 1200,
  minHeight: 40,
  maxHeight: 600,
  /** Widths and given heights are drawn at the nearest multiple of this. */
  step: 20,
});

/**
 * The width an image is drawn at: the nearest multiple of 20 CSS px (halfway rounds up),
 * within 100..1200, so 56 widths exist and caches keyed by width hit whatever widths are
 * asked for. Two widths that snap alike are the same image.
 * @example snapWidth(590) // 600
 */
export function snapWidth(width: number): number {
  return snap(width, IMAGE_SIZE.minWidth, IMAGE_SIZE.maxWidth);
}

/** The height an image is drawn at when one is given: like {@link snapWidth}, 40..600. */
export function snapHeight(height: number): number {
  return snap(height, IMAGE_SIZE.minHeight, IMAGE_SIZE.maxHeight);
}

function snap(value: number, min: number, max: number): number {
  const step = IMAGE_SIZE.step;
  return Math.min(max, Math.max(min, Math.floor(value / step + 0.5) * step));
}
