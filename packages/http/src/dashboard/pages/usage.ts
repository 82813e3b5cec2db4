import type { PageRoute } from "./route";
export const usageRoutes: readonly PageRoute[] = [];
