import type { PageRoute } from "./route";
export const timerRoutes: readonly PageRoute[] = [];
