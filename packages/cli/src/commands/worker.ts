import { createMetrics } from "@tminus/observability";
import type { Command } from "commander";
import { LOG_FORMAT_HELP, LOG_LEVEL_HELP, logDatabaseReady } from "../logging";
import { startMetricsServer } from "../metrics-server";
import { CliError, DB_OPTION_HELP } from "../options";
import { startWorker } from "../worker";
import { startProcess } from "./process-start";
import { parsePort, stopOnSignals } from "./serve";

/** `tminus worker`: webhook deliveries and the retention purge, no HTTP. */
export function registerWorker(program: Command): void {
  program
    .command("worker")
    .description(
      "run the webhook worker and the retention purge without HTTP (beside `serve --no-worker` processes)",
    )
    .option("--db <file-or-url>", DB_OPTION_HELP)
    .option("--config <file>", "JSON config file (webhook settings, retention)")
    .option(
      "--base-url <url>",
      "public URL of the API, for the timer URLs in event payloads (default: the config's base_url)",
    )
    .option("--no-migrate", "do not migrate the database; refuse to start unless it is current")
    .option("--pool-size <n>", "PostgreSQL connections of this process (default 10)")
    .option("--metrics-port <n>", "serve Prometheus metrics at /metrics on this port")
    .option("--metrics-host <host>", "interface of the metrics listener", "127.0.0.1")
    .option("--log-format <format>", LOG_FORMAT_HELP)
    .option("--log-level <level>", LOG_LEVEL_HELP, "info")
    .action(async (opts) => {
      const metricsPort =
        opts.metricsPort === undefined ? undefined : parsePort(opts.metricsPort, "--metrics-port");
      const { logger, flush, format, config, store, path, applied } = await startProcess(
        opts,
        "tminus worker",
      );
      // Pending migrations were applied (or, with --no-migrate, the schema checked) by now.
      logDatabaseReady(logger, { path, kind: store.kind, migrate: opts.migrate, applied });
      const metrics = metricsPort === undefined ? undefined : createMetrics();
      const metricsServer = metrics
        ? await startMetricsServer(metrics, metricsPort!, opts.metricsHost).catch(
            async (error: unknown) => {
              await store.close().catch(() => {});
              throw new CliError(`cannot listen for metrics: ${(error as Error).message}`);
            },
          )
        : null;
      const running = startWorker({ store, config, logger, ...(metrics ? { metrics } : {}) });
      const banner = `tminus worker running (database ${path})`;
      // JSON logs: stdout holds JSON lines only, so the terminal's lines are events there.
      if (format === "pretty") {
        process.stdout.write(`${banner}\n`);
        if (metricsServer) process.stdout.write(`metrics on ${metricsServer.url}\n`);
      }
      logger.info(
        { event: "worker_started", database: store.kind },
        format === "pretty" ? "worker running" : banner,
      );
      if (metricsServer && format !== "pretty") {
        logger.info(
          { event: "metrics_listening", url: metricsServer.url },
          `metrics on ${metricsServer.url} (Prometheus)`,
        );
      }
      stopOnSignals(async () => {
        await running.close();
        await metricsServer?.close();
        logger.info({ event: "stopped" }, "stopped");
      }, flush);
    });
}
