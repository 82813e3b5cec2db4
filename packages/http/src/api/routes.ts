import { analyticsRoutes } from "./analytics";
import { assetRoutes } from "./assets";
import type { AnyApiRoute } from "./define";
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

/**
 * The whole /api/v1: every operation, one module per resource. The router, the dispatcher and
 * the OpenAPI document all read this one table.
 */
export const apiRoutes: readonly AnyApiRoute[] = [
  ...usageRoutes,
  ...requestLogRoutes,
  ...timerRoutes,
  ...timerStatusRoutes,
  ...timerChangeRoutes,
  ...timerActionRoutes,
  ...timerActivityRoutes,
  ...analyticsRoutes,
  ...timezoneRoutes,
  ...webhookDestinationRoutes,
  ...assetRoutes,
  ...webhookRuleRoutes,
  ...webhookDeliveryRoutes,
];
