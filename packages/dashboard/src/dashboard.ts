import type { Mount, MountContext, MountHost } from "@tminus/http";
import {
  ApiError,
  type ApiRequest,
  type ApiResponse,
  assetsConfig,
  BodyTooLargeError,
  dashboardConfig,
  IncompleteBodyError,
  type TminusConfig,
} from "@tminus/http";
import type { Environment } from "@tminus/store";
import { createDashboardAdmin } from "./admin";
import { createApiCaller, dashboardAuth } from "./api-call";
import { DASHBOARD_JS } from "./client";
import type { DashboardPlace, PageContext, UploadedFile } from "./context";
import { readCookie, SESSION_COOKIE } from "./cookies";
import { CSRF_FIELD, CSRF_HEADER, csrfAllowed, csrfTokenFor } from "./csrf";
import type { DashboardDeps } from "./deps";
import { FAVICON } from "./favicon";
import { FLASH_COOKIE, flashOf } from "./flash";
import { html } from "./html";
import { page, plainResponse } from "./layout";
import { accountAnalyticsRoutes } from "./pages/account-analytics";
import { assetRoutes } from "./pages/assets";
import { authRoutes } from "./pages/auth";
import { galleryRoutes } from "./pages/gallery";
import { keyRoutes } from "./pages/keys";
import { memberRoutes } from "./pages/members";
import { overviewRoutes } from "./pages/overview";
import type { PageRoute } from "./pages/route";
import { timerAnalyticsRoutes } from "./pages/timer-analytics";
import { timerRoutes } from "./pages/timers";
import { usageRoutes } from "./pages/usage";
import { webhookRoutes } from "./pages/webhooks";
import { htmlResponse, redirect } from "./responses";
import { sha256Hex } from "./secrets";
import { DASHBOARD_CSS } from "./styles";

const PAGES: readonly PageRoute[] = [
  ...overviewRoutes,
  ...keyRoutes,
  ...timerRoutes,
  ...galleryRoutes,
  ...timerAnalyticsRoutes,
  ...accountAnalyticsRoutes,
  ...usageRoutes,
  ...webhookRoutes,
  ...memberRoutes,
  ...assetRoutes,
];

const ENVIRONMENTS = new Set<string>(["production", "sandbox"]);

/**
 * The browser dashboard as a mount of the handler, under `dashboard.path` (default
 * `/dashboard`) below the mount prefix. Sessions and users live in the store; pages are
 * rendered on the server and call the API's own operations through its pipeline (see
 * api-call.ts).
 */
export function createDashboard(host: MountHost): Mount {
  const deps: DashboardDeps = {
    config: host.config,
    renderImage: host.renderImage,
    lookFont: host.lookFont,
    onError: host.onError,
    admin: createDashboardAdmin(host),
  };
  const settings = dashboardConfig(deps.config);
  const prefix = settings.path;
  const call = createApiCaller(host.invokeRoute);

  // Browsers ask for /favicon.ico on their own: the dashboard's icon answers it.
  const handles = (path: string) =>
    settings.enabled && (path === prefix || path.startsWith(`${prefix}/`) || path === FAVICON_PATH);

  async function handle(req: ApiRequest, context: MountContext): Promise<ApiResponse | null> {
    if (!handles(req.path)) return null;
    const { now, baseUrl, requestId } = context;
    // Signed-in people, not keys: not metered and not in the request log.
    context.outcome.route = `${prefix}/*`;
    const read = req.method === "GET" || req.method === "HEAD";
    if (req.path === FAVICON_PATH) return read ? icon() : null;
    const place: DashboardPlace = {
      path: `${new URL(baseUrl).pathname.replace(/\/+$/, "")}${prefix}`,
      baseUrl,
    };
    const rest = req.path.slice(prefix.length);
    try {
      return await route(req, rest, now, place);
    } catch (error) {
      if (error instanceof BodyTooLargeError || error instanceof IncompleteBodyError) {
        return plainResponse(
          413,
          place,
          "Too much at once",
          html`<p>The form was larger than this server accepts (${deps.config.max_body_bytes} bytes).</p>`,
        );
      }
      deps.onError(error, requestId);
      return plainResponse(
        500,
        place,
        "Something went wrong",
        html`<p>The page could not be shown. Try again in a moment.</p><p class="muted">Request ${requestId}</p>`,
      );
    }
  }

  async function route(
    req: ApiRequest,
    rest: string,
    now: number,
    place: DashboardPlace,
  ): Promise<ApiResponse> {
    const read = req.method === "GET" || req.method === "HEAD";
    if (read && (rest === "/assets/app.css" || rest === "/assets/app.js")) return asset(rest);
    if (read && rest === "/assets/favicon.ico") return icon();
    const origins = allowedOrigins(req, place);
    const anonymous = await authRoutes.anonymous(req, rest, now, place, deps, origins);
    if (anonymous) return anonymous;

    const cookie = readCookie(req, SESSION_COOKIE);
    const found = cookie
      ? await deps.admin.sessions.findSession({ id_hash: sha256Hex(cookie), now })
      : null;
    const account = found ? await deps.admin.sessions.getAccount(found.user.account_id) : null;
    if (!found || !account || !cookie) {
      if (read) return redirect(`${place.path}/sign-in`);
      return forbidden(place, "Your session has ended. Sign in again.");
    }
    const { form, files } = read
      ? { form: req.query, files: new Map<string, UploadedFile>() }
      : await readForm(req, deps.config);
    if (!read) {
      const sent = form.get(CSRF_FIELD) ?? req.header(CSRF_HEADER);
      if (!csrfAllowed(req, cookie, sent, origins)) {
        return forbidden(
          place,
          "This form has expired or came from another site. Reload the page and try again.",
        );
      }
    }
    const signedIn = await authRoutes.signedIn(req, rest, found, place, deps);
    if (signedIn) return signedIn;

    if (rest === "" || rest === "/") return redirect(`${place.path}/production`);
    const env = rest.split("/")[1] ?? "";
    if (!ENVIRONMENTS.has(env)) return notFound(place);
    const environment = env as Environment;
    const sub = rest.slice(env.length + 1);
    const auth = dashboardAuth(found.user, account, environment);
    const ctx: PageContext = {
      req,
      now,
      place,
      user: found.user,
      account,
      environment,
      rest: sub,
      csrf: csrfTokenFor(cookie),
      admin: deps.admin,
      auth,
      form,
      files,
      api: (c) => call({ req, auth, now, baseUrl: place.baseUrl }, c),
      envPath: (path = "") => `${place.path}/${environment}${path}`,
      flash: flashOf(
        req,
        cookie,
        { path: place.path, secure: place.baseUrl.startsWith("https:") },
        now,
      ),
    };
    for (const r of PAGES) {
      if (r.method !== (read ? "GET" : req.method)) continue;
      const m = r.pattern.exec(sub);
      if (!m) continue;
      if (r.owner && found.user.role !== "owner") {
        return htmlResponse(
          403,
          page(ctx, {
            title: "Owners only",
            section: "",
            content: html`<p>Only an owner of ${account.name} can manage this. Ask an owner to do it, or to make you one.</p>`,
          }),
        );
      }
      try {
        const response = await r.handle(ctx, m.groups ?? {}, deps);
        // A flash is shown by the page after the redirect, once: any page read clears it.
        if (read && readCookie(req, FLASH_COOKIE) !== null && !response.headers["set-cookie"]) {
          response.headers["set-cookie"] = ctx.flash.clear;
        }
        return response;
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        return htmlResponse(
          error.status,
          page(ctx, {
            title: error.status === 404 ? "Not found" : "That did not work",
            section: "",
            content: html``,
            error: error.message,
          }),
        );
      }
    }
    return notFound(place);
  }

  return { handles, handle };
}

const FAVICON_PATH = "/favicon.ico";

function icon(): ApiResponse {
  return {
    status: 200,
    headers: { "content-type": "image/x-icon", "cache-control": "public, max-age=86400" },
    body: FAVICON,
  };
}

function asset(rest: string): ApiResponse {
  const css = rest.endsWith(".css");
  return {
    status: 200,
    headers: {
      "content-type": css ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8",
      "cache-control": "public, max-age=300",
    },
    body: css ? DASHBOARD_CSS : DASHBOARD_JS,
  };
}

/** The origins a form may be posted from: the public base URL's, and the request's own. */
function allowedOrigins(req: ApiRequest, place: DashboardPlace): string[] {
  return [new URL(place.baseUrl).origin, req.origin];
}

/**
 * The posted form: urlencoded (every form), JSON (the script's), or multipart with files (the
 * upload form, up to the largest file uploads take, plus room for the other fields).
 */
async function readForm(
  req: ApiRequest,
  config: TminusConfig,
): Promise<{ form: URLSearchParams; files: Map<string, UploadedFile> }> {
  const type = req.header("content-type") ?? "";
  const files = new Map<string, UploadedFile>();
  if (/^multipart\/form-data;/i.test(type) && req.bytes) {
    const { max_font_bytes, max_image_bytes } = assetsConfig(config);
    const body = await req.bytes(Math.max(max_font_bytes, max_image_bytes) + 64 * 1024);
    const form = new URLSearchParams();
    try {
      // The platform's own multipart parser (undici), over the bytes as they came.
      const parsed = await new Response(body as Uint8Array<ArrayBuffer>, {
        headers: { "content-type": type },
      }).formData();
      for (const [name, value] of parsed) {
        if (typeof value === "string") form.append(name, value);
        else files.set(name, { name: value.name, data: new Uint8Array(await value.arrayBuffer()) });
      }
    } catch {
      // Not a multipart body: an empty form, which the CSRF check refuses.
    }
    return { form, files };
  }
  return { form: await readTextForm(req, type, config.max_body_bytes), files };
}

async function readTextForm(
  req: ApiRequest,
  type: string,
  maxBytes: number,
): Promise<URLSearchParams> {
  const text = await req.text(maxBytes);
  if (type.startsWith("application/json")) {
    const out = new URLSearchParams();
    try {
      for (const [k, v] of Object.entries(JSON.parse(text) as Record<string, unknown>)) {
        if (typeof v === "string") out.set(k, v);
      }
    } catch {
      // Not JSON: an empty form, which the CSRF check refuses.
    }
    return out;
  }
  return new URLSearchParams(text);
}

function forbidden(place: DashboardPlace, message: string): ApiResponse {
  return plainResponse(
    403,
    place,
    "Not allowed",
    html`<p class="error" role="alert">${message}</p><p><a href="${place.path}/sign-in">Sign in</a></p>`,
  );
}

function notFound(place: DashboardPlace): ApiResponse {
  return plainResponse(
    404,
    place,
    "Not found",
    html`<p>There is no such page.</p><p><a href="${place.path}/">Back to the dashboard</a></p>`,
  );
}

export type { DashboardDeps };
