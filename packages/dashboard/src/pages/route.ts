import type { ApiResponse } from "@tminus/http";
import type { PageContext } from "../context";
import type { DashboardDeps } from "../deps";
import { redirect } from "../responses";

/** One page or form target of the dashboard, under `/<environment>`. */
export interface PageRoute {
  method: "GET" | "POST";
  /** Matched against the path after the environment; named groups become `params`. */
  pattern: RegExp;
  /** Owners only (API keys, webhooks, members). */
  owner?: boolean;
  handle(
    ctx: PageContext,
    params: Record<string, string>,
    deps: DashboardDeps,
  ): Promise<ApiResponse>;
}

/** The routes of a page that is the owners' alone (API keys, webhooks, members): every one of them owner-only. */
export function ownersOnly(routes: readonly Omit<PageRoute, "owner">[]): readonly PageRoute[] {
  return routes.map((route) => ({ ...route, owner: true }));
}

/** A notice shown after a redirect, by code: only our own texts reach the page. */
export function noticeOf(ctx: PageContext, notices: Record<string, string>): string | null {
  const code = ctx.req.query.get("notice");
  return code ? (notices[code] ?? null) : null;
}

/** A one-time panel's content, carried by the flash from a form post to the next page. */
export interface FlashPanel {
  /** Which panel: each page shows only its own kinds. */
  kind: string;
  [field: string]: string;
}

/** Post/redirect/get with a one-time panel: the page at `location` shows `panel` once. */
export function redirectWithFlash(ctx: PageContext, location: string, panel: FlashPanel) {
  return redirect(location, ctx.flash.seal(panel));
}

/** The flash panel this page was redirected with, when it is one of `kinds`. */
export function flashPanel(ctx: PageContext, ...kinds: string[]): FlashPanel | null {
  const value = ctx.flash.read() as FlashPanel | null;
  return value && typeof value === "object" && kinds.includes(value.kind) ? value : null;
}
