import type { MountFactory } from "@tminus/http";
import { createDashboard } from "./dashboard";

/**
 * The browser dashboard, mounted beside the API with one call:
 * `createHandler({ store, mounts: [dashboard()] })`. Its settings (`enabled`, `path`, session
 * and link lifetimes, sign-in attempts) are the handler's `config.dashboard`.
 * @example
 * import { createHandler } from "@tminus/http";
 * import { dashboard } from "@tminus/dashboard";
 * const handler = createHandler({ store, mounts: [dashboard()] });
 */
export function dashboard(): MountFactory {
  return (host) => createDashboard(host);
}

export { dashboardAuth, ROLE_SCOPES } from "./api-call";
