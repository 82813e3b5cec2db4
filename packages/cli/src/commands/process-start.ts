import { createCliLogger, parseLogFormat, parseLogLevel } from "../logging";
import {
  loadConfig,
  openStore,
  parseMemoryMb,
  parsePoolSize,
  parseSharedCacheSeconds,
} from "../options";

/** The flags every long-running command (`serve`, `worker`) takes, as commander hands them over. */
export interface ProcessFlags {
  db?: string;
  config?: string;
  baseUrl?: string | null;
  migrate: boolean;
  poolSize?: string;
  /** `serve --shared-cache-seconds` (render.shared_cache_seconds). */
  sharedCacheSeconds?: string;
  /** `serve --memory-mb` (render.memory_mb). */
  memoryMb?: string;
  logFormat?: string;
  logLevel: string;
}

/**
 * What `serve` and `worker` start from, in the same order so they fail alike: the logger, the
 * config (with `--base-url` over its `base_url`) and the store, migrated unless `--no-migrate`.
 * `role` names the process to PostgreSQL (`application_name`). `format` is the log format: with
 * `json`, stdout holds log lines only, so what a terminal would print becomes events.
 */
export async function startProcess(opts: ProcessFlags, role: string) {
  const format = parseLogFormat(opts.logFormat);
  const { logger, flush } = await createCliLogger(format, parseLogLevel(opts.logLevel));
  const poolSize = parsePoolSize(opts.poolSize);
  const config = loadConfig(opts.config, {
    base_url: opts.baseUrl ?? undefined,
    shared_cache_seconds: parseSharedCacheSeconds(opts.sharedCacheSeconds),
    memory_mb: parseMemoryMb(opts.memoryMb),
  });
  const { store, path, applied } = await openStore(opts.db, {
    migrate: opts.migrate,
    poolSize,
    role,
  });
  return { logger, flush, format, config, store, path, applied };
}
