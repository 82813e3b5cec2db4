export {
  type Admin,
  AdminError,
  type AdminOptions,
  type ApiKeyView,
  createAdmin,
  type IssuedApiKey,
} from "./admin";
export { generateApiKey, hashApiKey, KEY_PREFIX } from "./api-key-format";
export {
  ConfigError,
  DEFAULT_CONFIG,
  limitsFor,
  type PlanLimits,
  resolveConfig,
  type TminusConfig,
  type TminusConfigInput,
  type WebhookConfig,
} from "./config";
export { type BillingCycle, cycleAt } from "./cycle";
export { ApiError, ERROR_STATUS, type ErrorCode } from "./errors";
export type { ApiRequest, ApiResponse } from "./exchange";
export { createHandler, type TminusHandler } from "./fetch";
export { API_PREFIX, type HandlerOptions } from "./handler";
export { createNodeListener, type NodeListener } from "./node";
export { buildOpenApiDocument, type OpenApiOptions } from "./openapi/document";
export { SCOPES, type Scope } from "./scopes";
export { type BlockedReason, blockedReason } from "./webhooks/address-policy";
export { type HostResolver, type ResolvedAddress, resolveDestination } from "./webhooks/resolve";
export {
  createWebhookWorker,
  type WebhookWorker,
  type WebhookWorkerOptions,
} from "./webhooks/worker";
