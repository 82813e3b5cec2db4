import type { Logger, TminusMetrics } from "@tminus/observability";
import type { WebhookWorkerOptions } from "@tminus/webhooks";

/**
 * The webhook worker's hooks for a process's logger and metrics: each attempt is counted and
 * logged (ids, outcome, status; never the destination's URL or the payload), faults are logged.
 */
export function workerReports(
  logger: Logger | undefined,
  metrics: TminusMetrics | null,
): Pick<WebhookWorkerOptions, "onAttempt" | "onError"> {
  const out: Pick<WebhookWorkerOptions, "onAttempt" | "onError"> = {};
  if (logger) {
    out.onError = (error) =>
      logger.error({ err: error, event: "webhook_worker_fault" }, "webhook worker fault");
  }
  if (logger || metrics) {
    out.onAttempt = (report) => {
      metrics?.webhookAttempt(report);
      if (!logger) return;
      const line = { event: "webhook_attempt", ...report };
      if (report.outcome === "failed") logger.warn(line, "webhook delivery failed");
      else logger.info(line, "webhook attempt");
    };
  }
  return out;
}
