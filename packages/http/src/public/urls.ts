import { EMBED_SCRIPT_PATH, PUBLIC_PREFIX } from "@tminus/core";

/** Whether a path belongs to the public render routes. */
export function isPublicPath(path: string): boolean {
  return path.startsWith(PUBLIC_PREFIX) || path === EMBED_SCRIPT_PATH;
}

/** Path prefix of the files the public pages load (the look's fonts), under the public prefix. */
export const ASSETS_PREFIX = `${PUBLIC_PREFIX}assets/`;
/** Path prefix of the font files, under {@link ASSETS_PREFIX}. */
export const FONTS_PREFIX = `${ASSETS_PREFIX}fonts/`;

/** Templates of the public routes, by what follows the timer id (see `publicRouteTemplate`). */
const TIMER_TEMPLATES: Record<string, string> = {
  "": `${PUBLIC_PREFIX}{timer_id}`,
  "/embed": `${PUBLIC_PREFIX}{timer_id}/embed`,
  "/countdown.gif": `${PUBLIC_PREFIX}{timer_id}/countdown.gif`,
  "/countdown.png": `${PUBLIC_PREFIX}{timer_id}/countdown.png`,
  "/countdown.json": `${PUBLIC_PREFIX}{timer_id}/countdown.json`,
  "/font": `${PUBLIC_PREFIX}{timer_id}/font`,
  "/background": `${PUBLIC_PREFIX}{timer_id}/background`,
};
const FONT_TEMPLATE = `${FONTS_PREFIX}{file}`;
const OTHER_TEMPLATE = `${PUBLIC_PREFIX}{other}`;

/**
 * The route template of a public path, for metrics and logs: one of a fixed few strings, so
 * a timer id (or anything a client makes up) never becomes a label.
 */
export function publicRouteTemplate(path: string): string {
  if (path === EMBED_SCRIPT_PATH) return EMBED_SCRIPT_PATH;
  if (path.startsWith(FONTS_PREFIX)) return FONT_TEMPLATE;
  const rest = path.slice(PUBLIC_PREFIX.length);
  const slash = rest.indexOf("/");
  return TIMER_TEMPLATES[slash === -1 ? "" : rest.slice(slash)] ?? OTHER_TEMPLATE;
}
