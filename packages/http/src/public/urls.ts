import { EMBED_SCRIPT_PATH, PUBLIC_PREFIX } from "@tminus/core";

/** Whether a path belongs to the public render routes. */
export function isPublicPath(path: string): boolean {
  return path.startsWith(PUBLIC_PREFIX) || path === EMBED_SCRIPT_PATH;
}

/** Path prefix of the files the public pages load (the look's fonts), under the public prefix. */
export const ASSETS_PREFIX = `${PUBLIC_PREFIX}assets/`;
/** Path prefix of the font files, under {@link ASSETS_PREFIX}. */
export const FONTS_PREFIX = `${ASSETS_PREFIX}fonts/`;
