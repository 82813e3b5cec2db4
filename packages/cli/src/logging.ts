import type { Logger } from "@tminus/observability";
import type { DestinationStream } from "pino";
import { CliError } from "./errors";
import { type RequestLines, requestLines } from "./request-lines";

/** `--log-format`: one JSON object a line, or coloured lines for people. */
export type LogFormat = "json" | "pretty";

/** pino's levels, most severe first, and `silent`. */
const LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** JSON lines are written once this many bytes wait... */
const FLUSH_BYTES = 4096;
/** ...or after this long, so a quiet server's lines are never held longer. */
const FLUSH_MS = 200;

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
 * The process's logger, on stdout. JSON lines go through an asynchronous, buffered destination:
 * the request's path never waits for a write, and lines leave in batches (at most 200 ms late).
 * Pretty lines are for a terminal, written as they come. pino (and pino-pretty) are loaded
 * here, so commands that do not log (`keys`, `render`...) never load them.
 */
export async function createCliLogger(format: LogFormat, level: string): Promise<CliLogger> {
  const { pino } = await import("pino");
  let destination: DestinationStream;
  let lines: RequestLines | null = null;
  if (format === "pretty") {
    const { default: pretty } = await import("pino-pretty");
    destination = pretty({
      colorize: Boolean(process.stdout.isTTY),
      sync: true,
      ignore: "pid,hostname",
      translateTime: "SYS:HH:MM:ss.l",
    });
  } else {
    // Lines leave in writes of 4 KiB (about 20 request lines) or every 200 ms, whichever comes
    // first: a write to a pipe per request cost the server more CPU than the request itself.
    const stream = pino.destination({ dest: 1, sync: false, minLength: FLUSH_BYTES });
    setInterval(() => {
      try {
        lines?.flush();
        stream.flush();
      } catch {
        // stdout is gone (the reader exited): nothing left to write to.
      }
    }, FLUSH_MS).unref();
    destination = stream;
  }
  const base = { pid: process.pid };
  const pinoLogger = pino({ level, base }, destination);
  if (format === "json" && pinoLogger.isLevelEnabled("info")) {
    // The one line every request logs skips pino's generic path: formatted by hand in pino's
    // layout and handed to the destination 4 KiB at a time (about 11 us of a status request's
    // CPU before, bench/README.md).
    const head = `{"level":${pinoLogger.levels.values.info},"time":`;
    lines = requestLines(
      (text) => destination.write(text),
      { head, bindings: `,"pid":${base.pid}` },
      FLUSH_BYTES,
    );
  }
  const logger = orderedLogger(pinoLogger, lines);
  return {
    logger,
    flush() {
      lines?.flush();
      // Waits for the writes in flight, in order (a synchronous flush could overtake one);
      // a reader that stopped reading gets one second, not a process that never exits.
      const flushable = destination as { flush?: (done: (error?: Error) => void) => void };
      if (format === "pretty" || !flushable.flush) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        flushable.flush!(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}

/**
 * The pino logger with the request lines' fast path: any other line first hands the request
 * lines still kept to the destination, so lines come out in the order they were logged.
 */
function orderedLogger(logger: Logger, lines: RequestLines | null): Logger {
  if (lines === null) return logger;
  const afterFlush =
    (level: "debug" | "info" | "warn" | "error") =>
    (fields: object, message?: string): void => {
      lines.flush();
      logger[level](fields, message);
    };
  return {
    debug: afterFlush("debug"),
    info: afterFlush("info"),
    warn: afterFlush("warn"),
    error: afterFlush("error"),
    requestLine: (line) => lines.add(line),
  };
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
