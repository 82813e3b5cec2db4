// @tminus/webhooks: the delivery side of tminus webhooks. The API writes events to the
// store's outbox in the transaction of each change; a worker built here claims them, signs
// them (Standard Webhooks), sends them through the address policy, retries them, and fires
// the time-based events. Run it inside `tminus serve`, or as many separate processes as you
// like on one store.

export { type BlockedReason, blockedHost, blockedReason, normalizeHost } from "./address-policy";
export type { WebhookAttemptReport } from "./deliver";
export {
  changeEvent,
  eventPayload,
  type TimeEventFields,
  type ViewerEventFields,
  viewerEvent,
} from "./events";
export { oneAtATime, type PeriodicJob, type SerialPass } from "./periodic-job";
export {
  DestinationAddressError,
  type HostResolver,
  type ResolvedAddress,
  resolveDestination,
} from "./resolve";
export { parseRetryAfter, retryDelay } from "./retry";
export { runSchedulerPass } from "./scheduler";
export { RESPONSE_EXCERPT_BYTES } from "./send";
export {
  DEFAULT_WEBHOOK_CONFIG,
  resolveWebhookConfig,
  type WebhookConfig,
  WebhookConfigError,
} from "./settings";
export { generateWebhookSecret, signatureHeaders, signPayload } from "./signing";
export { runViewerEndPass, VIEWER_RECHECK_MS, viewerEndAt } from "./viewer-ends";
export {
  createWebhookWorker,
  type WebhookWorker,
  type WebhookWorkerConfig,
  type WebhookWorkerOptions,
} from "./worker";
