import type { MountHost } from "@tminus/http";

/** What the dashboard needs from the handler that serves it: what every mount gets. */
export type DashboardDeps = MountHost;
