import { randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import {
  computeStatus,
  EMBED_SCRIPT_PATH,
  imageInputOf,
  inViewerTimezone,
  PUBLIC_PREFIX,
  publicUrls,
  type TimerStatusResult,
  timerData,
} from "@tminus/core";
import type { CacheFigure, RenderFigures } from "@tminus/observability";
import type { ImageInput } from "@tminus/render";
import type { Store, TimerRecord } from "@tminus/store";
import {
  analyticsConfig,
  cachesConfig,
  renderConfig,
  type TminusConfig,
  webhookConfig,
} from "../config";
import type { ReadCache } from "../guards/read-cache";
import { isUuid } from "../ids";
import { budgetShares, serverThreads } from "../memory-budget";
import { clientAddress } from "../transport/base-url";
import type { ApiRequest, ApiResponse } from "../transport/exchange";
import { campaignLabel, clickState } from "./campaign-label";
import { clientFamily } from "./client-family";
import { answerConditional, imageEtag } from "./conditional-get";
import { countdownJson, countdownJsonNotAvailable } from "./countdown-json";
import { clickTarget, endedImageRedirect, hostedPageFor, redirectTo } from "./go";
import { createImageCache } from "./image-cache";
import { type ImageOptions, imageOptions } from "./image-options";
import { createImageRenderer, isQueueFull, threadLimits } from "./image-renderer";
import { refusedTextField, withFormerText } from "./legacy-text";
import { createLoadShedder } from "./load-shedding";
import { unfilledMergeTagParam } from "./merge-tags";
import { loadRender } from "./render-module";
import { requestSource } from "./request-source";
import {
  hasRecipientParams,
  PRIVATE_IMAGE_CACHE_CONTROL,
  sharedImageHeaders,
} from "./shared-cache";
import { createStillImages, DEGRADED_HEADER } from "./still-images";
import { createUploadedFonts, type TimerFont } from "./uploaded-fonts";
import { createUploadedImages } from "./uploaded-images";
import { FONTS_PREFIX } from "./urls";
import { createViewCounter, viewerIdentity } from "./view-counter";
import {
  previewViewer,
  recipientOf,
  rememberFirstViews,
  resolveViewer,
  startWaitsForHuman,
} from "./viewer";
import { createViewerEvents } from "./viewer-events";

// Email clients and proxies must ask again each time: the first frame is the exact time left.
const IMAGE_CACHE_CONTROL = "no-cache, max-age=0";
// A font file's name carries its package version, so its bytes never change: a year.
const FONT_CACHE_CONTROL = "public, max-age=31536000, immutable";
/** Width of the PNG that link previews show (og:image): the widest image there is. */
const SHARE_IMAGE_WIDTH = 1200;
const UNAVAILABLE_TEXT = "This countdown is not available";

type Kind = "page" | "embed" | "gif" | "png" | "go" | "json" | "font" | "background";
const KINDS: Record<string, Kind> = {
  "/font": "font",
  "/background": "background",
  "": "page",
  "/embed": "embed",
  "/countdown.gif": "gif",
  "/countdown.png": "png",
  "/go": "go",
  "/countdown.json": "json",
};

/**
 * The public render routes (no key, outside /api/v1): `/t/{id}` hosted page, `/t/{id}/embed`,
 * `/t/{id}/countdown.gif`, `/t/{id}/countdown.png`, the email link `/t/{id}/go` (go.ts),
 * `/embed.js`, and the pages' font files under `/t/assets/fonts/`. Only published timers are
 * shown; drafts, archived and deleted timers get a 404 page or a neutral "not available"
 * image (with status 404), so an email never shows a broken-image icon. They keep working when
 * the account's new-timer allowance is spent: nothing here is metered.
 */
export function createPublicRoutes(deps: {
  store: Store;
  config: TminusConfig;
  cache: ReadCache;
  /** Take the client's address from the proxy's headers (analytics' viewer hash). */
  trustProxy?: boolean;
  onError: (error: unknown, requestId: string) => void;
  /** The handler's clock, read when an answer is ready (how long a shared cache may keep it). */
  now?: () => number;
}) {
  const render = renderConfig(deps.config);
  const images = createImageCache(render.image_cache_mb * 1024 * 1024);
  const bounds = cachesConfig(deps.config);
  const firstViews = rememberFirstViews(deps.store, bounds.first_views);
  const counting = analyticsConfig(deps.config).enabled;
  const views = createViewCounter(deps.store, deps.onError, 100, bounds.analytics_viewers);
  const viewerEvents = createViewerEvents(
    deps.store,
    webhookConfig(deps.config).max_viewer_events_per_timer_day,
    deps.onError,
    bounds.viewer_events,
  );
  const renderer = createImageRenderer(render);
  // The shares of the settings in force (a setting given next to the budget takes its own).
  const budget =
    render.memory_mb === null
      ? null
      : {
          ...render,
          memory_mb: render.memory_mb,
          threads: render.threads ?? serverThreads(availableParallelism()),
        };
  const uploadedFonts = createUploadedFonts(deps.store, deps.cache);
  const uploadedImages = createUploadedImages(deps.store, deps.cache);
  // The pool full: a still of the exact time, never a 503. The loop too slow: pages give way.
  const stills = createStillImages({
    cacheBytes: render.still_cache_mb * 1024 * 1024,
    atlasCacheBytes: render.atlas_cache_mb * 1024 * 1024,
    maxWaitMs: render.max_wait_ms,
    limits: threadLimits(render),
    // Inline rendering (threads 0) has no pool to go first on: stills keep their lane.
    ...(render.still_thread || render.threads === 0
      ? {}
      : { onPool: (kind, input) => renderer.render(kind, input, undefined, true) }),
  });
  const shedder = createLoadShedder(render.page_shed_delay_ms);
  // 0 (the default): every image is answered `no-cache` alone, as before the option existed.
  const sharedSeconds = render.shared_cache_seconds;
  const readClock = deps.now ?? Date.now;
  let unavailable: Promise<{ gif: Uint8Array; png: Uint8Array }> | undefined;

  // Drawn once, on the render threads like every other image: never on the API's event loop.
  // A refusal (the queue is full) or a failure is not kept, so a later request tries again.
  const unavailableImages = () => {
    unavailable ??= Promise.all([
      renderer.render("gif", { remainingSeconds: 0, frames: 1, ended: { text: UNAVAILABLE_TEXT } }),
      renderer.render("png", { remainingSeconds: 0, ended: { text: UNAVAILABLE_TEXT } }),
    ]).then(([gif, png]) => ({ gif, png }));
    unavailable.catch(() => {
      unavailable = undefined;
    });
    return unavailable;
  };

  async function notShown(kind: Kind, status: number): Promise<ApiResponse> {
    if (kind === "json") return countdownJsonNotAvailable(status);
    if (kind === "font" || kind === "background") return notFound();
    if (kind === "gif" || kind === "png") {
      let images: { gif: Uint8Array; png: Uint8Array } | null = null;
      try {
        images = await unavailableImages();
      } catch (error) {
        if (!isQueueFull(error)) throw error;
      }
      if (images) return binary(status, kind, images[kind]);
      // Saturated before the stand-in image was ever drawn: the status says it all.
      return {
        status,
        headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
        body: `${UNAVAILABLE_TEXT}.`,
      };
    }
    return {
      status,
      headers: {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-store",
        // The page has nothing to load or run; it may show inside a customer's iframe.
        "content-security-policy": "default-src 'none'; base-uri 'none'; form-action 'none'",
        "referrer-policy": "no-referrer",
      },
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not available</title></head><body><p>${UNAVAILABLE_TEXT}.</p></body></html>`,
    };
  }

  /** Renders; a stored text the renderer refuses is drawn as it was before (legacy-text.ts). */
  async function renderWithFormerText(
    kind: "gif" | "png",
    input: ImageInput,
    signal?: AbortSignal,
  ): Promise<Uint8Array> {
    let current = input;
    for (let attempt = 0; ; attempt++) {
      try {
        return await renderer.render(kind, current, signal);
      } catch (error) {
        const field = refusedTextField(error);
        // Separator, locale, four labels and the ended text at most.
        if (field === null || attempt >= 7) throw error;
        current = withFormerText(current, field);
      }
    }
  }

  async function image(
    kind: "gif" | "png",
    timer: TimerRecord,
    status: TimerStatusResult,
    options: ImageOptions,
  ): Promise<ApiResponse> {
    const { definition } = timerData(timer);
    const running = status.state === "running";
    const remaining = status.remaining.total_seconds;
    // Looks without an upload (nearly all) wait for nothing more.
    const font = definition.look.font_asset_id ? await uploadedFonts.forTimer(timer) : null;
    const picture =
      definition.look.background?.type === "image" ? await uploadedImages.forTimer(timer) : null;
    // Everything the picture depends on, and nothing else: equal keys are equal images.
    const key = [
      kind,
      timer.id,
      timer.revision,
      font?.version ?? "",
      picture?.version ?? "",
      options.scale,
      options.variant,
      options.width,
      options.frames,
      remaining,
      running,
    ].join("|");
    // The campaign's common case, everyone opening one timer: this second's picture is kept.
    // Answered before anything else is built for it (its input, the pool's state, a still).
    const hit = images.kept(key);
    if (hit) return binary(200, kind, hit, imageEtag(key));
    const input = imageInputOf(definition, status, {
      width: options.width,
      scale: options.scale,
      variant: options.variant,
      frames: kind === "gif" ? options.frames : undefined,
    });
    if (font) input.font = { id: font.id, data: font.data };
    if (picture) input.backgroundImage = { id: picture.id, data: picture.data };
    // Behind a queue, or refused by a full one: one frame of the exact time left beats a broken
    // image in an email (still-images.ts). A still has no ETag: it is not the picture of `key`.
    const pool = renderer.poolStats();
    const queued = pool !== null && (pool.queued > 0 || pool.busy >= pool.threads);
    // Only a queued image can be late: the others need no signal (making one costs).
    const full = images.share(
      key,
      (signal) => renderWithFormerText(kind, input, signal),
      queued && render.max_wait_ms > 0,
    );
    // A still answers instead: the render is withdrawn unless a thread has started it or another
    // request waits for the same picture (each recipient's own is wanted by no one else).
    const { bytes, still } = await stills.fullOrStill(kind, input, full.image, queued, full.leave);
    if (!still) return binary(200, kind, bytes, imageEtag(key));
    const response = binary(200, kind, bytes);
    response.headers[DEGRADED_HEADER] = "still";
    return response;
  }

  async function page(
    kind: "page" | "embed",
    timer: TimerRecord,
    status: TimerStatusResult,
    now: number,
    baseUrl: string,
  ): Promise<ApiResponse> {
    const r = await loadRender();
    const { definition } = timerData(timer);
    const nonce = randomBytes(16).toString("base64");
    const urls = publicUrls(baseUrl, timer.id);
    const fonts = `${baseUrl}${FONTS_PREFIX}`;
    const font = definition.look.font_asset_id ? await uploadedFonts.forTimer(timer) : null;
    const picture =
      definition.look.background?.type === "image" ? await uploadedImages.forTimer(timer) : null;
    const input = {
      name: timer.name,
      ...(picture
        ? {
            backgroundImage: {
              url: `${baseUrl}${PUBLIC_PREFIX}${timer.id}/background?v=${picture.version}`,
            },
          }
        : {}),
      look: definition.look,
      ended: definition.ended,
      status: { remaining: status.remaining, state: status.state, target_at: status.target_at },
      now,
      nonce,
      reloadAt: reloadAt(timer, status),
      // Absolute, from the request (or base_url): a link preview fetches the image from elsewhere.
      urls: { fonts, page: urls.page, image: `${urls.png}?width=${SHARE_IMAGE_WIDTH}` },
      ...(font
        ? {
            uploadedFont: {
              url: uploadedFontUrl(baseUrl, timer.id, font),
              widestEm: font.widestEm,
            },
          }
        : {}),
    };
    const html = kind === "page" ? r.renderHostedPage(input) : r.renderEmbed(input);
    return {
      status: 200,
      headers: {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-store",
        "content-security-policy": r.countdownCsp(nonce, { embed: kind === "embed", fonts }),
        "referrer-policy": "no-referrer",
      },
      body: html,
    };
  }

  /**
   * A published timer's uploaded font, cut down to what it draws: public only while the timer
   * is published and its look names the font. Kept a year when asked for by its version.
   */
  async function timerFont(req: ApiRequest, timer: TimerRecord): Promise<ApiResponse> {
    const font = await uploadedFonts.forTimer(timer);
    if (!font) return notFound();
    return {
      status: 200,
      headers: {
        "content-type": font.contentType,
        "cache-control":
          req.query.get("v") === font.version ? FONT_CACHE_CONTROL : "public, max-age=300",
        "content-length": String(font.data.byteLength),
        "access-control-allow-origin": "*",
      },
      body: font.data,
    };
  }

  /**
   * A published timer's background picture, as uploaded: public only while the timer is
   * published and its look names it. Kept a year when asked for by its version.
   */
  async function timerBackground(req: ApiRequest, timer: TimerRecord): Promise<ApiResponse> {
    const picture = await uploadedImages.forTimer(timer);
    if (!picture) return notFound();
    return {
      status: 200,
      headers: {
        "content-type": picture.contentType,
        "cache-control":
          req.query.get("v") === picture.version ? FONT_CACHE_CONTROL : "public, max-age=300",
        "content-length": String(picture.data.byteLength),
        "x-content-type-options": "nosniff",
      },
      body: picture.data,
    };
  }

  /** A font file the pages link to, by name; 404 for any other name. */
  async function font(name: string): Promise<ApiResponse> {
    const file = (await loadRender()).webFontFile(name);
    if (!file) return notFound();
    return {
      status: 200,
      headers: {
        "content-type": file.contentType,
        "cache-control": FONT_CACHE_CONTROL,
        "content-length": String(file.body.byteLength),
        // Fonts are fetched in CORS mode; any page of ours, whatever its origin, may use them.
        "access-control-allow-origin": "*",
      },
      body: file.body,
    };
  }

  /** The response for a public path, or null when the path is not a public route. */
  async function handlePublic(
    req: ApiRequest,
    now: number,
    baseUrl: string,
  ): Promise<ApiResponse | null> {
    // HEAD is answered like GET (the dispatcher drops the body and keeps Content-Length).
    const read = req.method === "GET" || req.method === "HEAD";
    if (req.path === EMBED_SCRIPT_PATH) {
      if (!read) return null;
      const r = await loadRender();
      return {
        status: 200,
        headers: {
          "content-type": "text/javascript; charset=utf-8",
          "cache-control": "public, max-age=3600",
          "access-control-allow-origin": "*",
        },
        body: r.renderEmbedScript({ origin: baseUrl }),
      };
    }
    if (!req.path.startsWith(PUBLIC_PREFIX)) return null;
    shedder.seen();
    if (req.path.startsWith(FONTS_PREFIX) && read) return font(req.path.slice(FONTS_PREFIX.length));
    const rest = req.path.slice(PUBLIC_PREFIX.length);
    const slash = rest.indexOf("/");
    const id = (slash === -1 ? rest : rest.slice(0, slash)).toLowerCase();
    const kind = KINDS[slash === -1 ? "" : rest.slice(slash)];
    if (!kind || !read) return notShown(kind ?? "page", 404);
    // Pages are what gives way when the event loop is overloaded (load-shedding.ts).
    if (kind === "page" || kind === "embed") shedder.check();
    if (!isUuid(id)) return notShown(kind, 404);
    const timer = await deps.cache.findTimerById(id);
    if (timer?.status !== "published") return notShown(kind, 404);
    // Not a view: a file the page loads.
    if (kind === "font") return timerFont(req, timer);
    if (kind === "background") return timerBackground(req, timer);
    const options = kind === "gif" || kind === "png" ? imageOptions(req) : null;
    if ((kind === "gif" || kind === "png") && !options) return notShown(kind, 400);
    const { definition, clock } = timerData(timer);
    // A merge tag the platform left unfilled is a test send: a preview, and no one is counted.
    const preview = unfilledMergeTagParam(req) !== null;
    const isImage = kind === "gif" || kind === "png";
    const source = requestSource(req.header("user-agent"), isImage);
    const waits = isImage && startWaitsForHuman(timer, req);
    // start_on "first_human_open": a privacy prefetch sees the full duration and starts nothing.
    const held = waits && source === "prefetch";
    const { viewer, setCookie } =
      preview || held
        ? { viewer: previewViewer(timer, now), setCookie: undefined }
        : await resolveViewer(firstViews, timer, req, now, {
            page: kind === "page" || kind === "embed",
            // Served over https: the cookie must never travel in clear.
            secureCookie: baseUrl.startsWith("https:"),
            // The cookie is scoped to this timer's pages under the mount prefix, or it never returns.
            cookiePath: () => `${new URL(baseUrl).pathname.replace(/\/+$/, "")}/t/${timer.id}`,
          });
    // `tz`: the viewer's zone, for a wall-clock deadline its owner lets follow the viewer. One
    // that cannot apply (not allowed, not a zone) falls back to the timer's own zone and the
    // response says so: an email image is never broken over a bad parameter.
    const tz = req.query.get("tz");
    const zoned = tz === null ? null : inViewerTimezone(definition, tz);
    const shown = zoned?.applied ? zoned.definition : definition;
    const status = computeStatus({ definition: shown, clock, viewer }, now);
    if (kind === "go") {
      // A click is not a view (analytics count what was shown), but a click can be the
      // recipient's first sight of the timer (images off): it starts their countdown. A test
      // send's click (an unfilled merge tag) starts nothing.
      if (!preview) {
        viewerEvents.observe({ timer, viewer, recipient: recipientOf(req), now, baseUrl });
        // Counted like views (behind the answer, by the same User-Agent rules as images: a
        // link scanner that sends the bare prefetch agent is no reader).
        if (counting) {
          views.click({
            timer,
            state: clickState(status.state),
            source: requestSource(req.header("user-agent"), true),
            campaign: campaignLabel(req),
            now,
          });
        }
      }
      const hosted = hostedPageFor(req, publicUrls(baseUrl, timer.id).page);
      return redirectTo(clickTarget(shown, status, hosted));
    }
    const built =
      kind === "json"
        ? countdownJson({
            definition: shown,
            clock,
            viewer,
            status,
            ended: definition.ended,
            now,
            urls: publicUrls(baseUrl, timer.id),
          })
        : isImage
          ? (endedImageRedirect(definition, status) ?? (await image(kind, timer, status, options!)))
          : await page(kind, timer, status, now, baseUrl);
    // A drawn image (not the ended image's redirect) that is the same for everyone opening
    // this URL in this second may be kept by a cache in front; a recipient's own never is (a
    // test send and a prefetch held back carry a recipient's parameter too).
    if (isImage && sharedSeconds > 0 && built.status === 200) {
      if (hasRecipientParams(req)) {
        built.headers["cache-control"] = PRIVATE_IMAGE_CACHE_CONTROL;
      } else Object.assign(built.headers, sharedImageHeaders(sharedSeconds, readClock()));
    }
    if (setCookie) built.headers["set-cookie"] = setCookie;
    if (zoned && !zoned.applied) built.headers["x-tminus-timezone-ignored"] = zoned.reason;
    // Only where a prefetch and a reader are shown different pictures (docs/email.md).
    if (waits) built.headers["vary"] = "User-Agent";
    const response = answerConditional(req, built);
    if (preview) {
      response.headers["x-tminus-preview"] = "unfilled-merge-tag";
      return response;
    }
    // A view is what was shown: a 503 under load showed nothing. HEAD checks count too: a
    // proxy that asks HEAD then GET is told apart by nothing the request carries.
    // The ended image's redirect is a view too: it is what the email showed; so is a 304, the
    // copy a proxy revalidated.
    if (response.status === 200 || response.status === 302 || response.status === 304) {
      const recipient = recipientOf(req);
      if (counting) {
        const userAgent = req.header("user-agent");
        views.count({
          timer,
          // The element's one request is a view of the timer in a page, like the embed's.
          kind: kind === "json" ? "embed" : kind,
          client: clientFamily(userAgent, isImage),
          source,
          viewer: viewerIdentity(
            recipient,
            clientAddress(req, deps.trustProxy ?? false),
            userAgent,
          ),
          now,
          campaign: campaignLabel(req),
        });
      }
      if (!held) viewerEvents.observe({ timer, viewer, recipient, now, baseUrl });
    }
    return response;
  }

  return Object.assign(handlePublic, {
    /** Resolves once every view counted before the call is in the store. */
    flushViews: () => views.flush(),
    /** Stops the render threads; call after the requests in flight are answered. */
    close: async () => {
      shedder.close();
      await Promise.all([views.flush(), viewerEvents.close()]);
      await Promise.all([renderer.close(), stills.close()]);
    },
    /** Starts the render threads and warms them (see ImageRenderer.prepare), draws the stand-in, starts the still lane. */
    prepare: async () => {
      await renderer.prepare();
      await unavailableImages();
      if (render.threads !== 0) await stills.prepare();
    },
    /** What the render pool and the image cache did so far (read when metrics are scraped). */
    figures: (): RenderFigures => ({
      pool: renderer.poolStats(),
      rendered: renderer.rendered,
      stills: { ...stills.figures, ...stills.cacheCounts },
      shed: shedder.counts.shed,
      cache: { ...images.counts, bytes: images.bytes, entries: images.size },
      budget: budget && { total: budget.memory_mb, ...budgetShares(budget) },
    }),
    /** The public routes' bounded caches now (read when metrics are scraped). */
    caches: (): CacheFigure[] => {
      const still = stills.cacheSize();
      const counted = views.sizes();
      return [
        { cache: "images", entries: images.size, bytes: images.bytes },
        { cache: "uploaded_fonts", entries: uploadedFonts.size },
        { cache: "stills", entries: still.entries, bytes: still.bytes },
        { cache: "first_views", entries: firstViews.size },
        { cache: "viewer_events", entries: viewerEvents.size, bytes: viewerEvents.bytes },
        { cache: "analytics_pending", entries: counted.pending },
        {
          cache: "analytics_viewers_written",
          entries: counted.written,
          bytes: counted.writtenBytes,
        },
      ];
    },
    /** Draws an image on the same threads (the dashboard's unpublished previews). */
    render: (kind: "gif" | "png", input: ImageInput) => renderer.render(kind, input),
    /** The uploaded font a look not saved yet names, cut down (the dashboard's previews). */
    lookFont: uploadedFonts.forLook,
  });
}

function notFound(): ApiResponse {
  return {
    status: 404,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
    body: "Not found",
  };
}

/** Where a timer's pages load its uploaded font from; the version names the bytes. */
function uploadedFontUrl(baseUrl: string, timerId: string, font: TimerFont): string {
  return `${baseUrl}${PUBLIC_PREFIX}${timerId}/font?v=${font.version}`;
}

function binary(
  status: number,
  kind: "gif" | "png",
  bytes: Uint8Array,
  etag?: string,
): ApiResponse {
  return {
    status,
    headers: {
      "content-type": kind === "gif" ? "image/gif" : "image/png",
      "cache-control": IMAGE_CACHE_CONTROL,
      "content-length": String(bytes.byteLength),
      ...(etag === undefined ? {} : { etag }),
    },
    body: bytes,
  };
}

// A recurring timer's page reloads after each occurrence's ended hold, to count to the next.
function reloadAt(timer: TimerRecord, status: TimerStatusResult): number | null {
  if (timer.type !== "recurring" || status.final) return null;
  const { definition } = timerData(timer);
  const hold =
    definition.type === "recurring" ? definition.recurrence.ended_hold_seconds * 1000 : 0;
  const at = status.ended ? status.occurrence_at : status.target_at;
  return at === null || at === undefined ? null : at + hold + 500;
}
