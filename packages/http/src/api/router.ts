/** What the router needs of a route. */
export interface Routable {
  method: string;
  /** Template under the prefix, e.g. `/timers/{timer_id}/status`. */
  path: string;
}

/** A matched route with its path parameters. */
export interface RouteMatch<R extends Routable> {
  route: R;
  params: Record<string, string>;
  /** The full template, e.g. `/api/v1/timers/{timer_id}`, for the request log. */
  template: string;
}

interface Compiled<R extends Routable> {
  route: R;
  segments: string[];
}

/**
 * A segment-by-segment matcher. The table is small (tens of routes), so a linear scan over
 * pre-split templates is faster than anything cleverer and easy to read.
 */
export function createRouter<R extends Routable>(prefix: string, routes: readonly R[]) {
  const compiled: Compiled<R>[] = routes.map((route) => ({
    route,
    segments: route.path.split("/").filter(Boolean),
  }));

  return {
    /** The route for a method and path, `"method"` when only the method is wrong, or null. */
    match(method: string, path: string): RouteMatch<R> | { allowed: string[] } | null {
      const segments = path.split("/").filter(Boolean);
      const allowed: string[] = [];
      for (const c of compiled) {
        if (c.segments.length !== segments.length) continue;
        const params: Record<string, string> = {};
        let ok = true;
        for (let i = 0; i < segments.length; i++) {
          const want = c.segments[i]!;
          const got = segments[i]!;
          if (want.startsWith("{")) {
            try {
              params[want.slice(1, -1)] = decodeURIComponent(got);
            } catch {
              params[want.slice(1, -1)] = got;
            }
          } else if (want !== got) {
            ok = false;
            break;
          }
        }
        if (!ok) continue;
        if (c.route.method !== method) {
          allowed.push(c.route.method);
          continue;
        }
        return { route: c.route, params, template: prefix + c.route.path };
      }
      return allowed.length > 0 ? { allowed } : null;
    },
  };
}
