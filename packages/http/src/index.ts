export {
  AdminError,
  type ApiKeyView,
  type DashboardUserView,
  generateApiKey,
  hashApiKey,
  type IssuedApiKey,
  KEY_PREFIX,
  type PasswordLink,
  ROLL_DEFAULT_MS,
  ROLL_MAX_MS,
  type RolledApiKey,
  randomToken,
  SCOPES,
  type Scope,
  sha256Hex,
} from "@tminus/admin";
export type { Logger, RequestLogLine } from "@tminus/observability";
export { createMetrics, type MetricsOptions, type TminusMetrics } from "@tminus/observability";
export { type Admin, type AdminOptions, createAdmin } from "./admin";
export type { RouteResult, Services } from "./api/context";
export {
  type AnalyticsConfig,
  type AssetsConfig,
  assetsConfig,
  type CachesConfig,
  ConfigError,
  type DashboardConfig,
  DEFAULT_CONFIG,
  dashboardConfig,
  limitsFor,
  type PlanLimits,
  type RenderConfig,
  renderConfig,
  resolveConfig,
  type TminusConfig,
  type TminusConfigInput,
  type WebhookConfig,
} from "./config";
export { type BillingCycle, cycleAt } from "./cycle";
export { ApiError, ERROR_STATUS, type ErrorCode } from "./errors";
export { createHandler, type TminusHandler } from "./front-ends/fetch";
export { createNodeListener, type NodeListener } from "./front-ends/node";
export type { AuthContext } from "./guards/auth";
export { API_PREFIX, type HandlerOptions } from "./handler";
export {
  createHousekeepingJob,
  type HousekeepingJob,
  type HousekeepingJobOptions,
  purgeExpired,
} from "./housekeeping";
export {
  MAX_MEMORY_MB,
  type MemoryPlan,
  MIN_MEMORY_MB,
  memoryPlan,
  PROCESS_SHARE_MB,
  THREAD_SHARE_MB,
} from "./memory-budget";
export { type HealthOptions, NOT_READY, type NotReadyReason } from "./observability/health";
export { buildOpenApiDocument, type OpenApiOptions } from "./openapi/document";
export type { InvokeRoute, RouteCall, RouteTrace } from "./pipeline/invoke-route";
// The mount contract (Mount, MountContext, MountFactory, MountHost, RequestOutcome), whole.
export type * from "./pipeline/mount";
export {
  AllowedHostsError,
  allowedHostsCheck,
  type HostCheck,
  LOOPBACK_HOSTS,
} from "./transport/allowed-hosts";
export { handleClientError } from "./transport/client-error";
export {
  type ApiRequest,
  type ApiResponse,
  BodyTooLargeError,
  IncompleteBodyError,
} from "./transport/exchange";
