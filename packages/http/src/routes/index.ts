import type { RouteContext } from "../handler";
import type { Route } from "../router";
import { timerActionRoutes } from "./timer-actions";
import { timerActivityRoutes } from "./timer-activity";
import { timerChangeRoutes } from "./timer-changes";
import { timerRoutes } from "./timers";
import { usageRoutes } from "./usage";

/** The whole /api/v1 route table, one module per resource. */
export const apiRoutes: Route<RouteContext>[] = [
  ...usageRoutes,
  ...timerRoutes,
  ...timerChangeRoutes,
  ...timerActionRoutes,
  ...timerActivityRoutes,
];
