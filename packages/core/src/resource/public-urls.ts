/** Path prefix of a timer's public render routes (outside /api/v1, no key). */
export const PUBLIC_PREFIX = "/t/";
/** Path of the embed script. */
export const EMBED_SCRIPT_PATH = "/embed.js";

/** The public URLs of a published timer, as shown on the timer object. */
export interface PublicUrls {
  page: string;
  embed: string;
  gif: string;
  png: string;
  /** The email link that follows the timer: redirects by the recipient's state (http's go.ts). */
  go: string;
  embed_script: string;
}

/** The public URLs of timer `id` under `baseUrl` (an origin plus any mount prefix). */
export function publicUrls(baseUrl: string, id: string): PublicUrls {
  const t = `${baseUrl}${PUBLIC_PREFIX}${id}`;
  return {
    page: t,
    embed: `${t}/embed`,
    gif: `${t}/countdown.gif`,
    png: `${t}/countdown.png`,
    go: `${t}/go`,
    embed_script: `${baseUrl}${EMBED_SCRIPT_PATH}`,
  };
}
