import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import type { ApiRequest } from "@tminus/http";
import { type CookieScope, readCookie, setCookie } from "./cookies";

// The one-time panels after a form post (a new key's secret, a destination's signing secret, an
// invitation link) follow post/redirect/get: the POST answers 303 with a flash, the GET shows it
// once and clears it, so a reload neither re-posts nor shows the secret again. The flash is
// sealed with AES-256-GCM under a key derived from the session's secret cookie value (which
// the store never sees, only its hash): any process of a deployment can open it, no process or
// table keeps it, and nobody without the session cookie can read or forge it.

/** The cookie that carries a sealed flash to the next page. */
export const FLASH_COOKIE = "tminus_flash";
/** How long a flash waits for its page: the redirect follows at once. */
export const FLASH_SECONDS = 60;

const CONTEXT = "tminus-dashboard-flash-v1";

function keyOf(sessionCookie: string): Buffer {
  return createHmac("sha256", sessionCookie).update(CONTEXT).digest();
}

/** The flash of one session: seal a value for the next page, open (and clear) it there. */
export interface Flash {
  /** The `Set-Cookie` value that carries `value` to the next page. */
  seal(value: unknown): string;
  /** The value the previous response sealed, if any and not expired; null otherwise. */
  read(): unknown;
  /** The `Set-Cookie` value that removes the flash (send it with the page that shows it). */
  clear: string;
}

/** The flash of a signed-in request: `sessionCookie` is the session's secret cookie value. */
export function flashOf(
  req: ApiRequest,
  sessionCookie: string,
  scope: CookieScope,
  now: number,
): Flash {
  const key = keyOf(sessionCookie);
  return {
    seal(value) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const plain = JSON.stringify({ v: value, exp: now + FLASH_SECONDS * 1000 });
      const sealed = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      const token = Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url");
      return setCookie(FLASH_COOKIE, token, scope, FLASH_SECONDS);
    },
    read() {
      const token = readCookie(req, FLASH_COOKIE);
      if (!token) return null;
      try {
        const bytes = Buffer.from(token, "base64url");
        const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12));
        decipher.setAuthTag(bytes.subarray(12, 28));
        const plain = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]);
        const { v, exp } = JSON.parse(plain.toString("utf8")) as { v: unknown; exp: number };
        return exp > now ? v : null;
      } catch {
        // Another session's, tampered with or cut: nothing to show.
        return null;
      }
    },
    clear: setCookie(FLASH_COOKIE, "", scope, 0),
  };
}
