import type { PageRoute } from "./route";
export const webhookRoutes: readonly PageRoute[] = [];
