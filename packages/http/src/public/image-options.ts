import { IMAGE_SIZE, snapWidth } from "@tminus/core";
import type { ApiRequest } from "../transport/exchange";

/** Image options a public URL may carry; anything else in the query is ignored (utm_* etc.). */
export interface ImageOptions {
  frames: number;
  scale: 1 | 2;
  variant: "light" | "dark";
  width: number;
}

function intParam(req: ApiRequest, name: string, fallback: number, min: number, max: number) {
  const raw = req.query.get(name);
  if (raw === null) return fallback;
  if (!/^\d{1,4}$/.test(raw) || Number(raw) < min || Number(raw) > max) return null;
  return Number(raw);
}

/** The image options of a GIF or PNG request, or null when one is out of range (a `400`). */
export function imageOptions(req: ApiRequest): ImageOptions | null {
  const frames = intParam(req, "frames", 60, 1, 60);
  const scale = intParam(req, "scale", 1, 1, 2);
  const width = intParam(req, "width", 600, IMAGE_SIZE.minWidth, IMAGE_SIZE.maxWidth);
  const variant = req.query.get("variant") ?? "light";
  if (frames === null || scale === null || width === null) return null;
  if (variant !== "light" && variant !== "dark") return null;
  // Drawn at the nearest 20 px: widths that snap alike share one cache entry.
  return { frames, scale: scale as 1 | 2, variant, width: snapWidth(width) };
}
