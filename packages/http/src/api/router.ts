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
  /** A literal segment, or null where the template has a parameter. */
  literals: Array<string | null>;
  /** The parameter's name at each parameter segment. */
  names: Array<string | null>;
  template: string;
}

/**
 * A segment-by-segment matcher. The table is small (tens of routes), so a linear scan over
 * pre-split templates is faster than anything cleverer and easy to read. Parameters are
 * decoded only for the route that matches: this runs on every API request.
 */
export function createRouter<R extends Routable>(prefix: string, routes: readonly R[]) {
  const compiled: Compiled<R>[] = routes.map((route) => {
    const segments = route.path.split("/").filter(Boolean);
    return {
      route,
      literals: segments.map((s) => (s.startsWith("{") ? null : s)),
      names: segments.map((s) => (s.startsWith("{") ? s.slice(1, -1) : null)),
      template: prefix + route.path,
    };
  });

  // Routes by their number of segments: a path is compared only with templates of its length.
  const byLength = new Map<number, Compiled<R>[]>();
  for (const c of compiled) {
    const same = byLength.get(c.literals.length);
    if (same) same.push(c);
    else byLength.set(c.literals.length, [c]);
  }

  const decode = (raw: string) => {
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  };

  return {
    /** The route for a method and path, `"method"` when only the method is wrong, or null. */
    match(method: string, path: string): RouteMatch<R> | { allowed: string[] } | null {
      const segments = path.split("/").filter(Boolean);
      let allowed: string[] | null = null;
      for (const c of byLength.get(segments.length) ?? []) {
        let ok = true;
        for (let i = 0; i < segments.length; i++) {
          const want = c.literals[i];
          if (want !== null && want !== segments[i]) {
            ok = false;
            break;
          }
        }
        if (!ok) continue;
        if (c.route.method !== method) {
          allowed ??= [];
          allowed.push(c.route.method);
          continue;
        }
        const params: Record<string, string> = {};
        for (let i = 0; i < segments.length; i++) {
          const name = c.names[i];
          if (name != null) params[name] = decode(segments[i]!);
        }
        return { route: c.route, params, template: c.template };
      }
      return allowed ? { allowed } : null;
    },
  };
}
