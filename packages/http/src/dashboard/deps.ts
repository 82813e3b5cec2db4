import type { MountHost } from "../pipeline/mount";

/** What the dashboard needs from the handler that serves it: what every mount gets. */
export type DashboardDeps = MountHost;
