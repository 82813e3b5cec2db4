import type { RouteContext } from "../handler";
import type { Route } from "../router";
import { requestLogRoutes } from "./request-log";
import { timerActionRoutes } from "./timer-actions";
import { timerActivityRoutes } from "./timer-activity";
import { timerChangeRoutes } from "./timer-changes";
import { timerStatusRoutes } from "./timer-status";
import { timerRoutes } from "./timers";
import { timezoneRoutes } from "./timezones";
import { usageRoutes } from "./usage";
import { webhookDeliveryRoutes } from "./webhook-deliveries";
import { webhookDestinationRoutes } from "./webhook-destinations";
import { webhookRuleRoutes } from "./webhook-rules";

/** The whole /api/v1 route table, one module per resource. */
export const apiRoutes: Route<RouteContext>[] = [
  ...usageRoutes,
  ...requestLogRoutes,
  ...timerRoutes,
  ...timerStatusRoutes,
  ...timerChangeRoutes,
  ...timerActionRoutes,
  ...timerActivityRoutes,
  ...timezoneRoutes,
  ...webhookDestinationRoutes,
  ...webhookRuleRoutes,
  ...webhookDeliveryRoutes,
];
