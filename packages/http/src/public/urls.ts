import { EMBED_SCRIPT_PATH, PUBLIC_PREFIX } from "@tminus/core";

/** Whether a path belongs to the public render routes. */
export function isPublicPath(path: string): boolean {
  return path.startsWith(PUBLIC_PREFIX) || path === EMBED_SCRIPT_PATH;
}
