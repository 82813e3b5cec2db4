import type { Health } from "../observability/health";
import type { Mount } from "../pipeline/mount";

/**
 * The liveness and readiness probes. First of all mounts: nothing (no key, no meter, no rate
 * limit) stands before them.
 */
export function probesMount(health: Health): Mount {
  return {
    handles: (path) => health.handles(path),
    async handle(req, context) {
      const probe = health.answer(req.method, req.path, context.requestId);
      if (!probe) return null;
      context.outcome.route = req.path;
      return probe;
    },
  };
}
