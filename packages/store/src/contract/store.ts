import type { AccountStore } from "./accounts";
import type { AnalyticsStore } from "./analytics";
import type { AssetStore } from "./assets";
import type { HousekeepingStore } from "./housekeeping";
import type { LookStore } from "./looks";
import type { MeteringStore } from "./metering";
import type { TimerStore } from "./timers";
import type { UserStore } from "./users";
import type { ViewerStore } from "./viewers";
import type { WebhookStore, WebhookWorkerStore } from "./webhooks";

/**
 * The one persistence contract of tminus. Every adapter (SQLite, PostgreSQL, ...) implements
 * `Store` and passes the conformance suite in `test/store-suite.ts` unchanged.
 *
 * Rules every adapter keeps:
 * - All times are Unix milliseconds (numbers); the caller passes `now`, the store never reads
 *   a clock except for housekeeping it is told to do.
 * - Every query on tenant data is scoped by `account_id` AND `environment`.
 * - Operations documented as atomic are one transaction: concurrent calls behave as if they
 *   ran one after another.
 */
export interface Store
  extends AccountStore,
    TimerStore,
    MeteringStore,
    ViewerStore,
    AnalyticsStore,
    WebhookStore,
    WebhookWorkerStore,
    HousekeepingStore,
    UserStore,
    LookStore,
    AssetStore {
  /** Adapter name for logs and errors, e.g. `sqlite`. */
  readonly kind: string;
  /** Releases the connection; the store is unusable afterwards. */
  close(): Promise<void>;
  /**
   * Resolves when the database answers and its schema is exactly the version this code knows;
   * rejects with the reason otherwise. Readiness probes (`GET /readyz`) call it, so it reads
   * only and stays cheap.
   */
  checkReady(): Promise<void>;
  /**
   * The connection pool's state, for metrics: connections open, idle, and callers waiting for
   * one. Absent where there is no pool (SQLite is one in-process handle).
   */
  poolStats?(): PoolStats;
}

/** A connection pool's state at one instant (see `Store.poolStats`). */
export interface PoolStats {
  /** Connections open, busy or idle. */
  total: number;
  /** Open connections nobody uses. */
  idle: number;
  /** Callers queued for a connection. */
  waiting: number;
}
