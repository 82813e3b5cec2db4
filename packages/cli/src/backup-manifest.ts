import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { TableSummary } from "@tminus/store/copy";
import { CliError } from "./errors";

/**
 * What `tminus backup` writes beside the backup (`<file>.manifest.json`): the counts and
 * checksums of the very rows it saved, so `tminus restore` can prove the restored database
 * equal, whichever adapter made it.
 */
export interface BackupManifest {
  format: "tminus-backup";
  kind: "sqlite" | "postgres";
  /** The schema version of the saved database. */
  schema_version: number;
  created_at: string;
  /** The database it was taken from (a path, or a URL without its password). */
  source: string;
  tables: TableSummary[];
}

/** The manifest's path for a backup file. */
export function manifestPath(backup: string): string {
  return `${backup}.manifest.json`;
}

/** Writes the manifest beside the backup. */
export function writeManifest(backup: string, manifest: BackupManifest): void {
  writeFileSync(manifestPath(backup), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** Reads and checks the manifest of a backup, or fails in one line. */
export function readManifest(backup: string): BackupManifest {
  const path = manifestPath(backup);
  if (!existsSync(backup)) throw new CliError(`no backup at ${backup}`);
  if (!existsSync(path)) {
    throw new CliError(
      `no manifest at ${path}: restore verifies against the manifest \`tminus backup\` writes beside the backup`,
    );
  }
  let parsed: BackupManifest;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new CliError(`manifest ${path} is not valid JSON: ${(error as Error).message}`);
  }
  if (
    parsed?.format !== "tminus-backup" ||
    (parsed.kind !== "sqlite" && parsed.kind !== "postgres") ||
    !Array.isArray(parsed.tables)
  ) {
    throw new CliError(`manifest ${path} is not a tminus backup manifest`);
  }
  return parsed;
}
