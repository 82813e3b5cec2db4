import type { ApiResponse } from "@tminus/http";
import type { Environment } from "@tminus/store";
import type { DashboardPlace, PageContext } from "./context";
import { CSRF_FIELD } from "./csrf";
import { html, type SafeHtml } from "./html";
import { htmlResponse } from "./responses";
import { labelTableCells } from "./table-labels";

/** The sections of the navigation; `owner` ones are hidden from members. */
const SECTIONS = [
  { path: "", label: "Overview", owner: false },
  { path: "/timers", label: "Timers", owner: false },
  { path: "/looks", label: "Looks", owner: false },
  { path: "/analytics", label: "Analytics", owner: false },
  { path: "/usage", label: "Usage", owner: false },
  { path: "/assets", label: "Fonts & images", owner: false },
  { path: "/keys", label: "API keys", owner: true },
  { path: "/webhooks", label: "Webhooks", owner: true },
  { path: "/members", label: "Members", owner: true },
] as const;

/** The hidden CSRF field every state-changing form carries. */
export function csrfField(ctx: Pick<PageContext, "csrf">): SafeHtml {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${ctx.csrf}">`;
}

/** The document around any page: head, assets, the live region for announcements. */
export function documentShell(input: { title: string; assets: string; body: SafeHtml }): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin"><title>${input.title} · tminus</title>
<link rel="icon" href="${input.assets}/favicon.ico"><link rel="stylesheet" href="${input.assets}/app.css"><script src="${input.assets}/app.js" defer></script></head>
<body>${input.body}<div id="live" class="sr-only" aria-live="polite"></div></body></html>`.value;
}

/** A signed-in page: header with navigation and environment switch, then `content`. */
export function page(
  ctx: PageContext,
  input: {
    title: string;
    section: string;
    content: SafeHtml;
    notice?: string | null;
    /** The alert at the top: text, or our own HTML (links to the fields it is about). */
    error?: string | SafeHtml | null;
  },
): string {
  const env = ctx.environment;
  const other: Environment = env === "production" ? "sandbox" : "production";
  // The same page in the other environment; a timer's own page has no twin there.
  const rest = ctx.rest.startsWith("/timers/") ? "/timers" : ctx.rest;
  const switchTo = (e: Environment) => `${ctx.place.path}/${e}${rest}`;
  const nav = SECTIONS.filter((s) => !s.owner || ctx.user.role === "owner").map(
    (s) =>
      html`<li><a href="${ctx.envPath(s.path)}"${s.path === input.section ? html` aria-current="page"` : ""}>${s.label}</a></li>`,
  );
  const body = html`<a class="skip" href="#content">Skip to content</a>
<header class="top"><div class="bar"><a class="brand" href="${ctx.envPath()}">tminus</a>
<nav class="main" aria-label="Main"><ul>${nav}</ul></nav>
<div class="env" role="group" aria-label="Environment">
${(["production", "sandbox"] as const).map(
  (e) =>
    html`<a href="${e === env ? ctx.envPath(input.section) : switchTo(other)}"${e === env ? html` aria-current="true"` : ""}>${e === "production" ? "Production" : "Sandbox"}</a>`,
)}</div></div></header>
<p class="env-banner">${ctx.account.name} · ${env === "production" ? "Production: live timers, real emails." : "Sandbox: for trying things out; sandbox timers cannot be published."}</p>
<main id="content" tabindex="-1"><h1>${input.title}</h1>
${input.notice ? html`<p class="notice" role="status">${input.notice}</p>` : ""}
${input.error ? html`<p class="error" role="alert">${input.error}</p>` : ""}
${labelTableCells(input.content)}</main>
<footer><span>Signed in as ${ctx.user.email} (${ctx.user.role})</span>
<form class="inline" method="post" action="${ctx.place.path}/sign-out">${csrfField(ctx)}<button class="secondary" type="submit">Sign out</button></form>
<form class="inline" method="post" action="${ctx.place.path}/sign-out-everywhere">${csrfField(ctx)}<button class="secondary" type="submit">Sign out everywhere</button></form></footer>`;
  return documentShell({ title: input.title, assets: `${ctx.place.path}/assets`, body });
}

/** A page outside a session (sign-in, set-password): a narrow panel. */
export function plainPage(input: { assets: string; title: string; content: SafeHtml }): string {
  return documentShell({
    title: input.title,
    assets: input.assets,
    body: html`<main id="content" class="narrow"><h1>${input.title}</h1>${labelTableCells(input.content)}</main>`,
  });
}

/** A plain page as the whole answer: a refusal or a failure outside the signed-in layout. */
export function plainResponse(
  status: number,
  place: Pick<DashboardPlace, "path">,
  title: string,
  content: SafeHtml,
): ApiResponse {
  return htmlResponse(status, plainPage({ assets: `${place.path}/assets`, title, content }));
}

/** An instant as `2026-11-05 12:00 UTC`, or a dash. */
export function when(ms: number | string | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  const d = typeof ms === "number" ? new Date(ms) : new Date(ms);
  if (Number.isNaN(d.getTime())) return "—";
  return `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
