import { randomBytes } from "node:crypto";
import { resolvePersonalizedViewer, timerData, type ViewerContext } from "@tminus/core";
import type { Store, TimerRecord } from "@tminus/store";
import { verifyPersonalizedSignature } from "../personalized-signature";
import type { ApiRequest } from "../transport/exchange";

/** The cookie that identifies a browser on a duration timer's hosted page. */
export const VIEWER_COOKIE = "tminus_v";
const RECIPIENT = /^[A-Za-z0-9._~@+-]{1,128}$/;
const COOKIE_VALUE = /^[A-Za-z0-9_-]{16,64}$/;

function cookieValue(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** The URL's recipient id `r`, or null when absent or not a valid recipient id. */
export function recipientOf(req: ApiRequest): string | null {
  const recipient = req.query.get("r");
  return recipient !== null && RECIPIENT.test(recipient) ? recipient : null;
}

/** Who is looking, and the cookie to set when a page view starts a new viewer. */
export interface ResolvedViewer {
  viewer?: ViewerContext;
  setCookie?: string;
}

/**
 * The viewer of a public request. Duration timers: a recipient id `r` in the image URL, or a
 * cookie on the hosted page (set on the first visit), whose first view is stored once and is
 * that viewer's start; without either, the timer counts from publication. Personalized timers:
 * `deadline`/`start` and `sig` from the URL (signature rules applied by core).
 */
export async function resolveViewer(
  store: Pick<Store, "recordFirstView">,
  timer: TimerRecord,
  req: ApiRequest,
  now: number,
  options: {
    page: boolean;
    secureCookie: boolean;
    /** The cookie's Path; asked only when a cookie is set (it parses the base URL). */
    cookiePath: () => string;
  },
): Promise<ResolvedViewer> {
  const { definition, signing_secret } = timerData(timer);
  if (definition.type === "personalized") {
    const params: Record<string, string> = {};
    for (const name of ["deadline", "start", "sig"]) {
      const v = req.query.get(name);
      if (v !== null) params[name] = v;
    }
    const resolved = resolvePersonalizedViewer(
      definition,
      params,
      signing_secret ?? null,
      verifyPersonalizedSignature,
    );
    if (!resolved.valid) return {};
    const { valid: _valid, ...viewer } = resolved as typeof resolved & { valid: true };
    return { viewer: viewer as ViewerContext };
  }
  if (definition.type !== "duration") return {};
  const recipient = recipientOf(req);
  if (recipient !== null) {
    const start_at = await store.recordFirstView({
      timer_id: timer.id,
      viewer: `r:${recipient}`,
      now,
    });
    return { viewer: { start_at } };
  }
  if (!options.page) return {};
  let id = cookieValue(req.header("cookie"), VIEWER_COOKIE);
  let setCookie: string | undefined;
  if (!id || !COOKIE_VALUE.test(id)) {
    id = randomBytes(18).toString("base64url");
    setCookie = `${VIEWER_COOKIE}=${id}; Path=${options.cookiePath()}; Max-Age=31536000; HttpOnly; SameSite=Lax${options.secureCookie ? "; Secure" : ""}`;
  }
  const start_at = await store.recordFirstView({ timer_id: timer.id, viewer: `c:${id}`, now });
  return { viewer: { start_at }, setCookie };
}

/**
 * The viewer a test send (an unfilled merge tag, see merge-tags.ts) is shown as: on a duration
 * timer one whose countdown starts now, so the preview shows the full duration; on a
 * personalized timer none, so it shows the personalization fallback. Nothing is stored.
 */
export function previewViewer(timer: TimerRecord, now: number): ViewerContext | undefined {
  return timerData(timer).definition.type === "duration" ? { start_at: now } : undefined;
}

/**
 * Whether this request's evergreen recipient starts only on a human open (`start_on:
 * "first_human_open"`): then who fetches the image decides what it shows, and it varies with
 * the User-Agent.
 */
export function startWaitsForHuman(timer: TimerRecord, req: ApiRequest): boolean {
  const { definition } = timerData(timer);
  return (
    definition.type === "duration" &&
    definition.start_on === "first_human_open" &&
    recipientOf(req) !== null
  );
}

/**
 * `store.recordFirstView` behind a memory of the answers: a viewer's first view never changes
 * once stored, so every later image of a campaign recipient is served without a store write.
 */
export function rememberFirstViews(store: Pick<Store, "recordFirstView">, max = 50_000) {
  const seen = new Map<string, number>();
  return {
    async recordFirstView(input: { timer_id: string; viewer: string; now: number }) {
      const key = `${input.timer_id}|${input.viewer}`;
      const hit = seen.get(key);
      if (hit !== undefined) return hit;
      const first = await store.recordFirstView(input);
      if (seen.size >= max) seen.clear();
      seen.set(key, first);
      return first;
    },
    /** Answers remembered now, for the metrics. */
    get size() {
      return seen.size;
    },
  };
}
