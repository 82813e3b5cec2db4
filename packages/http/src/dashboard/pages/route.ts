import type { ApiResponse } from "../../exchange";
import type { PageContext } from "../context";
import type { DashboardDeps } from "../deps";

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

/** A notice shown after a redirect, by code: only our own texts reach the page. */
export function noticeOf(ctx: PageContext, notices: Record<string, string>): string | null {
  const code = ctx.req.query.get("notice");
  return code ? (notices[code] ?? null) : null;
}
