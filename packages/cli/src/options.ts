import { mkdirSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { ConfigError, resolveConfig, type TminusConfig } from "@tminus/http";
import { type Store, sqliteStore } from "@tminus/store";

/** Where the embedded database lives unless `--db` or `TMINUS_DB` says otherwise. */
export const DEFAULT_DB = ".tminus/tminus.db";

/** A failure the CLI reports as one line and exit code 1 (no stack trace). */
export class CliError extends Error {}

/** Opens the SQLite store named by `--db` (or `TMINUS_DB`, or the default). */
export function openStore(db: string | undefined): { store: Store; path: string } {
  const path = resolve(db ?? process.env.TMINUS_DB ?? DEFAULT_DB);
  mkdirSync(dirname(path), { recursive: true });
  return { store: sqliteStore({ path }), path };
}

/** Reads and validates the JSON config file of `--config` (defaults when absent). */
export function loadConfig(
  file: string | undefined,
  overrides: { base_url?: string } = {},
): TminusConfig {
  let input: Record<string, unknown> = {};
  if (file) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (err) {
      throw new CliError(`cannot read config file ${file}: ${(err as Error).message}`);
    }
    try {
      input = JSON.parse(text);
    } catch (err) {
      throw new CliError(`config file ${file} is not valid JSON: ${(err as Error).message}`);
    }
  }
  if (overrides.base_url) input = { ...input, base_url: overrides.base_url };
  try {
    return resolveConfig(input);
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(`${file ?? "config"}: ${err.message}`);
    throw err;
  }
}
