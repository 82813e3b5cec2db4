import type { ApiRequest, ApiResponse } from "@tminus/http";
import { dashboardConfig } from "@tminus/http";
import type { DashboardSession, DashboardUser } from "@tminus/store";
import type { DashboardPlace } from "../context";
import { type CookieScope, FORM_COOKIE, readCookie, SESSION_COOKIE, setCookie } from "../cookies";
import { CSRF_FIELD, csrfAllowed, csrfTokenFor } from "../csrf";
import type { DashboardDeps } from "../deps";
import { html } from "../html";
import { plainPage, plainResponse } from "../layout";
import { htmlResponse, redirect } from "../responses";
import {
  hashPassword,
  PASSWORD_MAX,
  PASSWORD_MIN,
  randomToken,
  sha256Hex,
  verifyDecoy,
  verifyPassword,
} from "../secrets";
import { plural } from "../words";

const WINDOW_MS = 15 * 60_000;
const FORM_COOKIE_SECONDS = 3600;

function scopeOf(place: DashboardPlace): CookieScope {
  return { path: place.path, secure: place.baseUrl.startsWith("https:") };
}

/** The pre-session cookie of a form page: the one the browser has, or a new one to set. */
function formCookie(req: ApiRequest, place: DashboardPlace): { value: string; set?: string } {
  const existing = readCookie(req, FORM_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return { value: existing };
  const value = randomToken();
  return { value, set: setCookie(FORM_COOKIE, value, scopeOf(place), FORM_COOKIE_SECONDS) };
}

function signInPage(
  place: DashboardPlace,
  csrf: string,
  input: { email?: string; error?: string; notice?: string },
): string {
  return plainPage({
    assets: `${place.path}/assets`,
    title: "Sign in",
    content: html`${input.notice ? html`<p class="notice" role="status">${input.notice}</p>` : ""}
${input.error ? html`<p class="error" role="alert">${input.error}</p>` : ""}
<form class="panel" method="post" action="${place.path}/sign-in">
<input type="hidden" name="${CSRF_FIELD}" value="${csrf}">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${input.email ?? ""}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<p><button type="submit">Sign in</button></p></form>
<p class="hint">No account yet? An owner of your account invites you from the Members page (or an operator with <code>tminus users create</code>) and hands you a link to set your password.</p>`,
  });
}

function passwordPage(
  place: DashboardPlace,
  csrf: string,
  token: string,
  user: DashboardUser,
  error?: string,
): string {
  return plainPage({
    assets: `${place.path}/assets`,
    title: "Set your password",
    content: html`${error ? html`<p class="error" role="alert">${error}</p>` : ""}
<form class="panel" method="post" action="${place.path}/set-password">
<input type="hidden" name="${CSRF_FIELD}" value="${csrf}"><input type="hidden" name="token" value="${token}">
<p>For <strong>${user.email}</strong>. Use at least ${PASSWORD_MIN} characters; a passphrase of a few words is easy to remember.</p>
<input type="text" name="username" value="${user.email}" autocomplete="username" hidden>
<label for="password">New password</label><input id="password" name="password" type="password" autocomplete="new-password" minlength="${PASSWORD_MIN}" maxlength="${PASSWORD_MAX}" required>
<label for="confirm">Repeat it</label><input id="confirm" name="confirm" type="password" autocomplete="new-password" required>
<p><button type="submit">Set password and sign in</button></p></form>`,
  });
}

function linkGone(place: DashboardPlace): ApiResponse {
  return plainResponse(
    410,
    place,
    "This link no longer works",
    html`<p>Set-password links work once and expire. Ask an owner of your account for a new one (Members page), or an operator (<code>tminus users link</code>).</p><p><a href="${place.path}/sign-in">Sign in</a></p>`,
  );
}

async function startSession(
  deps: DashboardDeps,
  place: DashboardPlace,
  user: DashboardUser,
  now: number,
): Promise<ApiResponse> {
  const hours = dashboardConfig(deps.config).session_hours;
  const value = randomToken();
  await deps.admin.sessions.createSession({
    id_hash: sha256Hex(value),
    user_id: user.id,
    expires_at: now + hours * 3_600_000,
    now,
  });
  return redirect(
    `${place.path}/production`,
    setCookie(SESSION_COOKIE, value, scopeOf(place), hours * 3600),
  );
}

async function readForm(req: ApiRequest, max: number): Promise<URLSearchParams> {
  return new URLSearchParams(await req.text(max));
}

/** Sign-in, set-password and sign-out: the pages that work without (or end) a session. */
export const authRoutes = {
  /** The sign-in and set-password pages and their posts; null for any other path. */
  async anonymous(
    req: ApiRequest,
    rest: string,
    now: number,
    place: DashboardPlace,
    deps: DashboardDeps,
    origins: readonly string[],
  ): Promise<ApiResponse | null> {
    if (rest !== "/sign-in" && rest !== "/set-password") return null;
    const settings = dashboardConfig(deps.config);
    const cookie = formCookie(req, place);
    const csrf = csrfTokenFor(cookie.value);
    const respond = (status: number, body: string) => htmlResponse(status, body, cookie.set);

    if (req.method === "GET" || req.method === "HEAD") {
      if (rest === "/sign-in") {
        const notice = req.query.get("notice") === "signed-out" ? "You are signed out." : undefined;
        return respond(200, signInPage(place, csrf, { notice }));
      }
      const token = req.query.get("token") ?? "";
      const user = await deps.admin.sessions.findPasswordLink({
        token_hash: sha256Hex(token),
        now,
      });
      if (!user) return linkGone(place);
      return respond(200, passwordPage(place, csrf, token, user));
    }
    if (req.method !== "POST") return null;
    const form = await readForm(req, deps.config.max_body_bytes);
    // The pre-session cookie must already be there: a cross-site post has none to match.
    if (cookie.set || !csrfAllowed(req, cookie.value, form.get(CSRF_FIELD), origins)) {
      const token = form.get("token") ?? "";
      const user =
        rest === "/set-password"
          ? await deps.admin.sessions.findPasswordLink({ token_hash: sha256Hex(token), now })
          : null;
      if (user) {
        return respond(
          403,
          passwordPage(place, csrf, token, user, "The form expired. Please try again."),
        );
      }
      return respond(
        403,
        signInPage(place, csrf, { error: "The form expired. Please try again." }),
      );
    }

    if (rest === "/sign-in") {
      const email = (form.get("email") ?? "").trim().toLowerCase().slice(0, 320);
      const password = (form.get("password") ?? "").slice(0, PASSWORD_MAX);
      const attempt = await deps.admin.sessions.countSignInAttempt({
        key: `email:${email}`,
        window_ms: WINDOW_MS,
        max: settings.sign_in_attempts_per_15_minutes,
        now,
      });
      if (!attempt.allowed) {
        const wait = Math.max(1, Math.ceil((attempt.window_ends_at - now) / 1000));
        const response = respond(
          429,
          signInPage(place, csrf, {
            email,
            error: `Too many sign-in attempts for this email. Try again in ${plural(Math.ceil(wait / 60), "minute")}.`,
          }),
        );
        response.headers["retry-after"] = String(wait);
        return response;
      }
      const user = email ? await deps.admin.sessions.findUserByEmail(email) : null;
      const ok = user?.password_hash
        ? await verifyPassword(password, user.password_hash)
        : await verifyDecoy(password);
      if (!user || !ok) {
        return respond(
          401,
          signInPage(place, csrf, { email, error: "The email or the password is not right." }),
        );
      }
      return startSession(deps, place, user, now);
    }

    const token = form.get("token") ?? "";
    const user = await deps.admin.sessions.findPasswordLink({ token_hash: sha256Hex(token), now });
    if (!user) return linkGone(place);
    const password = form.get("password") ?? "";
    let problem: string | undefined;
    if (password.length < PASSWORD_MIN) problem = `Use at least ${PASSWORD_MIN} characters.`;
    else if (password.length > PASSWORD_MAX) problem = `Use at most ${PASSWORD_MAX} characters.`;
    else if (password !== form.get("confirm")) problem = "The two passwords are not the same.";
    if (problem) return respond(400, passwordPage(place, csrf, token, user, problem));
    const updated = await deps.admin.sessions.usePasswordLink({
      token_hash: sha256Hex(token),
      password_hash: await hashPassword(password),
      now,
    });
    if (!updated) return linkGone(place);
    return startSession(deps, place, updated, now);
  },

  /** Sign out (this browser) and sign out everywhere (every session of the user). */
  async signedIn(
    req: ApiRequest,
    rest: string,
    found: { session: DashboardSession; user: DashboardUser },
    place: DashboardPlace,
    deps: DashboardDeps,
  ): Promise<ApiResponse | null> {
    if (req.method !== "POST") return null;
    if (rest === "/sign-out") await deps.admin.sessions.deleteSession(found.session.id_hash);
    else if (rest === "/sign-out-everywhere")
      await deps.admin.sessions.deleteUserSessions(found.user.id);
    else return null;
    return redirect(
      `${place.path}/sign-in?notice=signed-out`,
      setCookie(SESSION_COOKIE, "", scopeOf(place), 0),
    );
  },
};
