import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { zoneDataCheck } from "@tminus/core";
import type { Command } from "commander";
import { firstStartBanner, keysFilePath, writeFirstStartKeys } from "../first-start";
import { parseAllowedHosts, servedHosts } from "../hosts";
import { LOG_FORMAT_HELP, LOG_LEVEL_HELP, logDatabaseReady } from "../logging";
import { CliError, DB_OPTION_HELP } from "../options";
import { userPath } from "../paths";
import { startServer } from "../server";
import { startProcess } from "./process-start";

/** The default of `--keys-file`, for the help text. */
const KEYS_FILE_HELP =
  "tminus-first-start-keys.txt beside the SQLite file, else in the current folder";

/** Where `tminus serve` listens unless `--port` (or PORT) and `--host` say otherwise. */
export const DEFAULT_PORT = 8787;
export const DEFAULT_HOST = "127.0.0.1";

/** A port option (`--port`, `--metrics-port`): an integer from 0 (any free port) to 65535. */
export function parsePort(value: string, flag = "--port"): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new CliError(`${flag} must be an integer from 0 to 65535, got "${value}"`);
  }
  return port;
}

/** `--shutdown-delay`: seconds, from 0 to 300. */
function parseShutdownDelay(value: string): number {
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > 300) {
    throw new CliError(
      `--shutdown-delay must be a number of seconds from 0 to 300, got "${value}"`,
    );
  }
  return seconds * 1000;
}

/**
 * Stops on SIGINT/SIGTERM: `close` finishes what is in flight, then the process exits.
 * `flush` writes out buffered log lines first.
 */
export function stopOnSignals(
  close: () => Promise<void>,
  flush: () => Promise<void> = async () => {},
): void {
  const stop = () => {
    close().then(
      () => flush().then(() => process.exit(0)),
      () => flush().then(() => process.exit(1)),
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

/**
 * `--keys-file`'s folder is checked before anything starts: a first start that could not write
 * the secrets would leave keys nobody can use. (An existing file is no error: every restart
 * after the first passes the same flag, and only a first start writes.)
 */
function checkKeysFile(flag: string): void {
  const file = userPath(flag);
  if (!existsSync(dirname(file))) {
    throw new CliError(`--keys-file: the folder ${dirname(file)} does not exist`);
  }
}

/** `tminus serve`: the API, the public routes and (unless `--no-worker`) the webhook worker. */
export function registerServe(program: Command): void {
  program
    .command("serve")
    .description(
      "start the countdown API, public pages and images, and the webhook worker (creates a default account and keys on first start)",
    )
    .option("--db <file-or-url>", DB_OPTION_HELP)
    .option("--port <n>", "port to listen on (env PORT)", process.env.PORT ?? String(DEFAULT_PORT))
    .option("--host <host>", "interface to bind", DEFAULT_HOST)
    .option("--config <file>", "JSON config file overriding plan limits and settings")
    .option("--base-url <url>", "public URL of the service (default: each request's own origin)")
    .option(
      "--allowed-hosts <hosts>",
      "without --base-url: the hosts served, comma-separated (name, name:port, [IPv6], .domain); others get 400 (default: loopback names and the listen address)",
    )
    .option(
      "--trust-proxy",
      "build URLs from Forwarded / X-Forwarded-* headers (only behind a proxy you run: anyone can send them)",
    )
    .option(
      "--no-worker",
      "HTTP only: no webhook worker and no retention purge (run `tminus worker` for those)",
    )
    .option("--no-migrate", "do not migrate the database; refuse to start unless it is current")
    .option("--pool-size <n>", "PostgreSQL connections of this process (default 10)")
    .option(
      "--metrics-port <n>",
      "serve Prometheus metrics at /metrics on this port, a listener apart from the API's",
    )
    .option("--metrics-host <host>", "interface of the metrics listener (default: --host)")
    .option(
      "--shared-cache-seconds <n>",
      "let a CDN or reverse proxy keep images without recipient parameters this many seconds (0 to 60; config render.shared_cache_seconds, default 0: none)",
    )
    .option(
      "--memory-mb <n>",
      "memory budget in MB (272 to 65536; config render.memory_mb): sizes render threads, their heaps, caches and the render queue (docs/configuration.md)",
    )
    .option("--log-format <format>", LOG_FORMAT_HELP)
    .option("--log-level <level>", LOG_LEVEL_HELP, "info")
    .option(
      "--keys-file <file>",
      `where a first start writes the new keys' secrets (mode 0600) instead of printing them; always used unless pretty logs go to a terminal (default: ${KEYS_FILE_HELP})`,
    )
    .option(
      "--shutdown-delay <seconds>",
      "on SIGTERM, answer /readyz with 503 this long before closing the listener, so a load balancer drains first",
      "0",
    )
    .action(async (opts) => {
      const port = parsePort(opts.port);
      const metricsPort =
        opts.metricsPort === undefined ? undefined : parsePort(opts.metricsPort, "--metrics-port");
      const shutdownDelayMs = parseShutdownDelay(opts.shutdownDelay);
      if (opts.keysFile !== undefined) checkKeysFile(opts.keysFile);
      const allowedHosts =
        opts.allowedHosts === undefined ? undefined : parseAllowedHosts(opts.allowedHosts);
      const started = await startProcess(
        opts,
        opts.worker ? "tminus serve" : "tminus serve --no-worker",
      );
      const { logger, flush, format, store, path, applied } = started;
      // Without a base URL, URLs follow the request's host: only hosts known to be ours.
      const config = servedHosts(started.config, {
        allowedHosts,
        trustProxy: opts.trustProxy === true,
        listenHost: opts.host,
      });
      const running = await startServer({
        store,
        config,
        port,
        host: opts.host,
        worker: opts.worker,
        metricsPort,
        metricsHost: opts.metricsHost,
        logger,
        shutdownDelayMs,
      }).catch(async (err: unknown) => {
        await store.close().catch(() => {});
        const {
          code,
          address,
          port: busy,
        } = (err ?? {}) as {
          code?: unknown;
          address?: string;
          port?: number;
        };
        if (code === "EADDRINUSE" || code === "EACCES" || code === "EADDRNOTAVAIL") {
          // Node names the address and port that failed: the API's or the metrics listener's.
          throw new CliError(
            `cannot listen on ${address ?? opts.host}:${busy ?? port}: ${(err as Error).message}`,
          );
        }
        throw err;
      });
      // Pending migrations were applied (or, with --no-migrate, the schema checked) at open;
      // said once the listener is up, so a start that fails leaves no line claiming a database.
      logDatabaseReady(logger, { path, kind: store.kind, migrate: opts.migrate, applied });
      // JSON logs are a stream for machines (and aggregators): only JSON lines on stdout, and
      // never a secret. What a terminal shows as text is an event there.
      const toTerminal = format === "pretty";
      const out = process.stdout;
      const dashboardPath = config.dashboard.enabled ? config.dashboard.path : null;
      if (running.bootstrapped) {
        // Printed only to a person at a terminal; a pipe or a file may be a log collector.
        if (toTerminal && process.stdout.isTTY && opts.keysFile === undefined) {
          out.write(firstStartBanner(running.bootstrapped, running.url, dashboardPath));
        } else {
          const file = keysFilePath(opts.keysFile, { kind: store.kind, path });
          writeFirstStartKeys(logger, file, running.bootstrapped, running.url, dashboardPath);
        }
      }
      const role = opts.worker ? "" : ", HTTP only: no webhook worker, no purge";
      const listening = `tminus listening on ${running.url} (database ${path}${role})`;
      if (toTerminal) {
        out.write(`${listening}\n`);
        if (running.metricsUrl) out.write(`metrics on ${running.metricsUrl}\n`);
      }
      logger.info(
        {
          event: "listening",
          url: running.url,
          metrics_url: running.metricsUrl,
          database: store.kind,
          worker: opts.worker,
        },
        toTerminal ? "listening" : listening,
      );
      const tz = zoneDataCheck();
      if (!tz.matches) {
        // Offsets stay exact (each day is checked as it is first cached); the warning says the
        // full check was made on other tz data, so operators know which check stands.
        logger.warn(
          { event: "tz_data_unchecked", runtime: tz.runtime, checked: tz.checked },
          `the runtime's tz data (${tz.runtime ?? "unknown"}) is not the release checked in full (${tz.checked}): zone offsets are checked day by day`,
        );
      }
      if (running.metricsUrl && !toTerminal) {
        logger.info(
          { event: "metrics_listening", url: running.metricsUrl },
          `metrics on ${running.metricsUrl} (Prometheus)`,
        );
      }
      stopOnSignals(() => running.close(), flush);
    });
}
