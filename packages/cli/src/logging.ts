import type { Logger } from "@tminus/observability";
import type { DestinationStream } from "pino";
import { CliError } from "./errors";
import { logDestination } from "./log-destination";
import { requestLines } from "./request-lines";

/** `--log-format`: one JSON object a line, or coloured lines for people. */
export type LogFormat = "json" | "pretty";

/** pino's levels, most severe first, and `silent`. */
const LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** A process's logger and how to write out what it still holds before exiting. */
export interface CliLogger {
  logger: Logger;
  /** Resolves once the buffered lines are written (call before `process.exit`). */
  flush(): Promise<void>;
}

/** `--log-format`: `json`, `pretty`, or absent (pretty on a terminal, JSON otherwise). */
export function parseLogFormat(value: string | undefined): LogFormat {
  if (value === undefined) return process.stdout.isTTY ? "pretty" : "json";
  if (value === "json" || value === "pretty") return value;
  throw new CliError(`--log-format must be json or pretty, got "${value}"`);
}

/** `--log-level`: one of pino's levels. */
export function parseLogLevel(value: string): string {
  if ((LEVELS as readonly string[]).includes(value)) return value;
  throw new CliError(`--log-level must be one of ${LEVELS.join(", ")}, got "${value}"`);
}

/**
 * The process's logger, on stdout. JSON lines go through the buffered destination of
 * `log-destination.ts`: the request's path never waits for a write, lines leave in pieces of
 * 4 KiB (at most 200 ms late), and a reader that stops reading costs dropped lines, not a
 * stalled server. Pretty lines are for a terminal, written as they come. pino (and
 * pino-pretty) are loaded here, so commands that do not log (`keys`, `render`...) never load
 * them.
 */
export async function createCliLogger(format: LogFormat, level: string): Promise<CliLogger> {
  const { pino } = await import("pino");
  const base = { pid: process.pid };
  if (format === "pretty") {
    const { default: pretty } = await import("pino-pretty");
    const destination: DestinationStream = pretty({
      colorize: Boolean(process.stdout.isTTY),
      sync: true,
      ignore: "pid,hostname",
      translateTime: "SYS:HH:MM:ss.l",
    });
    return { logger: pino({ level, base }, destination), flush: () => Promise.resolve() };
  }
  const destination = logDestination({
    droppedLine: (lines) =>
      `{"level":${pino.levels.values.warn},"time":${Date.now()},"pid":${base.pid},"event":"log_lines_dropped","dropped":${lines},"msg":"log lines dropped: stdout was not read"}\n`,
  });
  const pinoLogger = pino({ level, base }, destination);
  if (!pinoLogger.isLevelEnabled("info")) return { logger: pinoLogger, flush: destination.flush };
  // The one line every request logs skips pino's generic path: formatted by hand in pino's
  // layout (bench/README.md, "What a request line costs"), into the same destination, so
  // lines keep their order.
  const logger: Logger = {
    debug: (fields, message) => pinoLogger.debug(fields, message),
    info: (fields, message) => pinoLogger.info(fields, message),
    warn: (fields, message) => pinoLogger.warn(fields, message),
    error: (fields, message) => pinoLogger.error(fields, message),
    requestLine: requestLines(destination.write, {
      head: `{"level":${pinoLogger.levels.values.info},"time":`,
      bindings: `,"pid":${base.pid}`,
    }),
  };
  return { logger, flush: () => destination.flush() };
}

/** The help texts of the logging options serve and worker share. */
export const LOG_FORMAT_HELP =
  "log format: json or pretty (default: pretty on a terminal, else json)";
export const LOG_LEVEL_HELP =
  "least severe level logged: fatal, error, warn, info, debug, trace, silent";

/**
 * The `database_ready` event of `serve` and `worker`: the database (without its password),
 * whether pending migrations were applied or only checked (`--no-migrate`), and which
 * versions this start applied (`[]` when it was up to date).
 */
export function logDatabaseReady(
  logger: Logger,
  database: { path: string; kind: string; migrate: boolean; applied: number[] },
): void {
  logger.info(
    {
      event: "database_ready",
      database: database.path,
      kind: database.kind,
      schema: database.migrate ? "migrated" : "checked",
      applied: database.applied,
    },
    "database ready",
  );
}
