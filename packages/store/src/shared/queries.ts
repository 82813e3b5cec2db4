import type { Store } from "../contract";

// The groups of `Store` methods that each module of an adapter implements, named once for both
// adapters: an adapter's `Store` is these groups spread together (see its index.ts).

/** Accounts: create, read, list, status and plan. */
export type AccountQueries = Pick<
  Store,
  | "createAccount"
  | "getAccount"
  | "findAccountByName"
  | "listAccounts"
  | "setAccountStatus"
  | "setAccountPlan"
>;

/** API keys: create, the per-request lookup, list, revoke and roll. */
export type ApiKeyQueries = Pick<
  Store,
  "createApiKey" | "findApiKeyByHash" | "listApiKeys" | "revokeApiKey" | "rollApiKey"
>;

/** Rate windows and usage counters. */
export type MeteringQueries = Pick<Store, "reserveRequests" | "addUsage" | "getUsage">;

/** The request log. */
export type RequestLogQueries = Pick<
  Store,
  "logRequests" | "listRequestLog" | "countRequestsByDay"
>;

/** Timers: the atomic create and change, reads and keyset lists. */
export type TimerQueries = Pick<Store, "createTimer" | "getTimer" | "listTimers" | "changeTimer">;

/** A timer's activity history. */
export type ActivityQueries = Pick<Store, "listActivity">;

/** The public routes' reads and first views. */
export type ViewerQueries = Pick<Store, "findTimerById" | "recordFirstView">;

/** Per-recipient viewer events. */
export type ViewerEventQueries = Pick<
  Store,
  "recordViewerStart" | "listDueViewerEnds" | "advanceViewerEnd"
>;

/** Webhook destinations. */
export type WebhookDestinationQueries = Pick<
  Store,
  | "createWebhookDestination"
  | "listWebhookDestinations"
  | "getWebhookDestination"
  | "updateWebhookDestination"
  | "deleteWebhookDestination"
  | "rotateWebhookSecret"
>;

/** Webhook rules. */
export type WebhookRuleQueries = Pick<
  Store,
  "createWebhookRule" | "listWebhookRules" | "deleteWebhookRule"
>;

/** Deliveries: reads, replay, and the workers' claim and record. */
export type WebhookDeliveryQueries = Pick<
  Store,
  | "listWebhookDeliveries"
  | "getWebhookDelivery"
  | "replayWebhookDelivery"
  | "claimDueDeliveries"
  | "recordAttempt"
>;

/** Time-based rules: the due list and the step that fires them. */
export type WebhookScheduleQueries = Pick<Store, "listDueTimeRules" | "advanceTimeRule">;

/** Secrets and the retention purge. */
export type HousekeepingQueries = Pick<Store, "getOrCreateSecret" | "purge">;
