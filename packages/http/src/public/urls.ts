/** Paths of the public render routes (outside /api/v1, no key). */
export const PUBLIC_PREFIX = "/t/";
export const EMBED_SCRIPT_PATH = "/embed.js";

/** The public URLs of a published timer, as shown on the timer object. */
export interface PublicUrls {
  page: string;
  embed: string;
  gif: string;
  png: string;
  embed_script: string;
}

/** The public URLs of timer `id` under `baseUrl`. */
export function publicUrls(baseUrl: string, id: string): PublicUrls {
  const t = `${baseUrl}${PUBLIC_PREFIX}${id}`;
  return {
    page: t,
    embed: `${t}/embed`,
    gif: `${t}/countdown.gif`,
    png: `${t}/countdown.png`,
    embed_script: `${baseUrl}${EMBED_SCRIPT_PATH}`,
  };
}

/** Whether a path belongs to the public render routes. */
export function isPublicPath(path: string): boolean {
  return path.startsWith(PUBLIC_PREFIX) || path === EMBED_SCRIPT_PATH;
}
