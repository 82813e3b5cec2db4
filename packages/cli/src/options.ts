import { readFileSync } from "node:fs";
import {
  ConfigError,
  MAX_MEMORY_MB,
  MIN_MEMORY_MB,
  resolveConfig,
  type TminusConfig,
} from "@tminus/http";
import type { Store } from "@tminus/store";
import { DEFAULT_DB, type OpenOptions, openDatabase, parseDatabaseTarget } from "./database";
import { CliError } from "./errors";
import { userPath } from "./paths";

export { CliError, DEFAULT_DB };

/**
 * Opens the store named by `--db` (or `TMINUS_DATABASE_URL`, `TMINUS_DB`, the default file):
 * a SQLite path or a `postgres://` URL, migrated unless `migrate: false`. `path` is the file,
 * or the URL without its password.
 */
export async function openStore(
  db: string | undefined,
  options: OpenOptions = {},
): Promise<{ store: Store; path: string; applied: number[] }> {
  const { store, label, applied } = await openDatabase(parseDatabaseTarget(db), options);
  return { store, path: label, applied };
}

/** Reads and validates the JSON config file of `--config` (defaults when absent). */
export function loadConfig(
  file: string | undefined,
  overrides: { base_url?: string; shared_cache_seconds?: number; memory_mb?: number } = {},
): TminusConfig {
  let input: Record<string, unknown> = {};
  if (file) {
    const path = userPath(file);
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (err) {
      throw new CliError(`cannot read config file ${path}: ${(err as Error).message}`);
    }
    try {
      input = JSON.parse(text);
    } catch (err) {
      throw new CliError(`config file ${file} is not valid JSON: ${(err as Error).message}`);
    }
  }
  if (overrides.base_url) input = { ...input, base_url: overrides.base_url };
  // A flag wins over the file's value; the file's other render settings stay.
  for (const key of ["shared_cache_seconds", "memory_mb"] as const) {
    if (overrides[key] === undefined) continue;
    const render = typeof input.render === "object" && input.render !== null ? input.render : {};
    input = { ...input, render: { ...render, [key]: overrides[key] } };
  }
  try {
    return resolveConfig(input);
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(`${file ?? "config"}: ${err.message}`);
    throw err;
  }
}

/** `--shared-cache-seconds`: how long a CDN may keep an image shared by every recipient. */
export function parseSharedCacheSeconds(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d{1,2}$/.test(value) || n > 60) {
    throw new CliError(`--shared-cache-seconds must be an integer from 0 to 60, got "${value}"`);
  }
  return n;
}

/** `--memory-mb`: the memory budget of `tminus serve` (render.memory_mb). */
export function parseMemoryMb(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d{1,6}$/.test(value) || n < MIN_MEMORY_MB || n > MAX_MEMORY_MB) {
    throw new CliError(
      `--memory-mb must be an integer from ${MIN_MEMORY_MB} to ${MAX_MEMORY_MB}, got "${value}"`,
    );
  }
  return n;
}

/** `--pool-size`: PostgreSQL connections of one process. */
export function parsePoolSize(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 1000) {
    throw new CliError(`--pool-size must be an integer from 1 to 1000, got "${value}"`);
  }
  return n;
}

/** The `--db` help text every command shares. */
export const DB_OPTION_HELP =
  "SQLite file or postgres:// URL (env TMINUS_DATABASE_URL, TMINUS_DB; default .tminus/tminus.db)";
