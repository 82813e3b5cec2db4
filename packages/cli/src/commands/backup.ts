import { existsSync, mkdirSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { backupSqlite, compareSummaries, summarizeTables } from "@tminus/store/copy";
import type { Command } from "commander";
import { type BackupManifest, readManifest, writeManifest } from "../backup-manifest";
import { type OpenedEndpoint, openCopyEndpoint } from "../copy-endpoints";
import { parseDatabaseTarget } from "../database";
import { CliError } from "../errors";
import { DB_OPTION_HELP } from "../options";
import { userPath } from "../paths";
import { findPgTool, pgDumpArgs, pgRestoreArgs, runPgTool, showCommand } from "../pg-tools";
import { formatSummaries, formatVerification } from "../verification";

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** `tminus backup`: a consistent online snapshot, with a manifest of counts and checksums. */
export function registerBackup(program: Command): void {
  program
    .command("backup")
    .description(
      "snapshot a database while it runs (SQLite backup API, or pg_dump) with a manifest of counts and checksums",
    )
    .option("--db <file-or-url>", DB_OPTION_HELP)
    .requiredOption("--out <file>", "the backup file to write (must not exist)")
    .option("--print", "PostgreSQL: print the pg_dump and pg_restore commands instead of running")
    .option("--json", "print the manifest as JSON")
    .action(async (opts) => {
      const target = parseDatabaseTarget(opts.db);
      const out = userPath(opts.out);
      if (target.kind === "postgres" && opts.print) {
        process.stdout.write(
          `${showCommand("pg_dump", pgDumpArgs(target.url, out))}\n${showCommand("pg_restore", pgRestoreArgs("postgres://user@host:5432/new_database", out))}\n`,
        );
        return;
      }
      if (existsSync(out)) throw new CliError(`${out} already exists; choose a new --out file`);
      // A folder is not made: a mistyped path would leave folders behind (and a backup where
      // nobody looks). It must exist, as the file must not.
      if (!isFolder(dirname(out))) {
        throw new CliError(`the folder of --out, ${dirname(out)}, does not exist; create it first`);
      }
      const manifest =
        target.kind === "sqlite"
          ? await backupSqliteFile(target.path, out)
          : await backupPostgres(target.url, out);
      writeManifest(out, manifest);
      if (opts.json) {
        process.stdout.write(`${JSON.stringify({ file: out, ...manifest })}\n`);
        return;
      }
      const rows = manifest.tables.reduce((n, t) => n + t.rows, 0);
      process.stdout.write(
        `backed up ${manifest.source} to ${out} (${rows} rows, schema version ${manifest.schema_version}); manifest ${out}.manifest.json\n`,
      );
      process.stdout.write(formatSummaries(manifest.tables));
    });
}

/** `tminus restore`: a backup into an empty database, verified against its manifest. */
export function registerRestore(program: Command): void {
  program
    .command("restore")
    .description("restore a `tminus backup` into an empty database and verify counts and checksums")
    .requiredOption("--from <file>", "the backup file (its .manifest.json beside it)")
    .option("--db <file-or-url>", `where to restore: ${DB_OPTION_HELP}`)
    .option("--json", "print the verification as JSON")
    .action(async (opts) => {
      const file = userPath(opts.from);
      const manifest = readManifest(file);
      const target = parseDatabaseTarget(opts.db);
      if (manifest.kind !== target.kind) {
        throw new CliError(
          `${file} is a ${manifest.kind} backup and --db is ${target.kind}; restore into the same kind, then \`tminus copy\` to move it`,
        );
      }
      if (target.kind === "sqlite") {
        const found = existsSync(target.path) ? statSync(target.path) : null;
        if (found && found.size > 0) {
          throw new CliError(
            `${target.path} already exists; restore into a new file (restore never overwrites)`,
          );
        }
        mkdirSync(dirname(target.path), { recursive: true });
        await backupSqlite(file, target.path).catch((error) => {
          throw new CliError(`cannot restore ${file}: ${(error as Error).message}`);
        });
      }
      const where = target.kind === "sqlite" ? target.path : target.url;
      const side = await openCopyEndpoint(where, "--db", {
        mustExist: true,
        role: "tminus restore",
      });
      try {
        if (target.kind === "postgres") await restorePostgres(side, target.url, file);
        const tables = compareSummaries(manifest.tables, await summarizeTables(side.endpoint));
        const ok = tables.every((t) => t.ok);
        if (opts.json) {
          process.stdout.write(
            `${JSON.stringify({ from: file, to: side.endpoint.label, ok, tables })}\n`,
          );
        } else {
          process.stdout.write(`restored ${file} into ${side.endpoint.label}\n`);
          process.stdout.write(formatVerification(tables, ["backup", "restored"]));
        }
        if (!ok) throw new CliError("the restored database differs from the backup's manifest");
      } finally {
        await side.close();
      }
    });
}

async function backupSqliteFile(path: string, out: string): Promise<BackupManifest> {
  if (!existsSync(path)) throw new CliError(`no SQLite database at ${path}`);
  await backupSqlite(path, out).catch((error) => {
    throw new CliError(`cannot back up ${path}: ${(error as Error).message}`);
  });
  // The manifest is read from the backup itself: exactly the rows it holds.
  const saved = await openCopyEndpoint(out, "--out", { mustExist: true, role: "tminus backup" });
  try {
    const version = await saved.endpoint.schemaVersion();
    const tables = await summarizeTables(saved.endpoint);
    return manifestOf("sqlite", version.found, path, tables);
  } finally {
    await saved.close();
  }
}

async function backupPostgres(url: string, out: string): Promise<BackupManifest> {
  const pgDump = findPgTool("pg_dump");
  if (!pgDump) {
    throw new CliError(
      "pg_dump not found (install the PostgreSQL client, e.g. apt-get install postgresql-client); `tminus backup --print` shows the command",
    );
  }
  const side = await openCopyEndpoint(url, "--db", { mustExist: true, role: "tminus backup" });
  try {
    const version = await side.endpoint.schemaVersion();
    // pg_dump reads the snapshot the manifest is summed in: both see the same rows however
    // many processes write meanwhile.
    const snapshot = await side.endpoint.beginSnapshot();
    try {
      await runPgTool(pgDump, pgDumpArgs(url, out, snapshot ?? undefined));
      const tables = await summarizeTables(side.endpoint);
      return manifestOf("postgres", version.found, side.endpoint.label, tables);
    } finally {
      await side.endpoint.endSnapshot();
    }
  } finally {
    await side.close();
  }
}

async function restorePostgres(side: OpenedEndpoint, url: string, file: string): Promise<void> {
  const found = [...(await side.endpoint.tables()).keys()];
  if (found.length > 0) {
    throw new CliError(
      `${side.endpoint.label} is not empty (${found.slice(0, 3).join(", ")}${found.length > 3 ? ", ..." : ""}); restore into a new database (createdb)`,
    );
  }
  const pgRestore = findPgTool("pg_restore");
  if (!pgRestore) {
    throw new CliError(
      `pg_restore not found (install the PostgreSQL client); run: ${showCommand("pg_restore", pgRestoreArgs(url, file))}`,
    );
  }
  await runPgTool(pgRestore, pgRestoreArgs(url, file));
}

function manifestOf(
  kind: BackupManifest["kind"],
  version: number,
  source: string,
  tables: BackupManifest["tables"],
): BackupManifest {
  return {
    format: "tminus-backup",
    kind,
    schema_version: version,
    created_at: new Date().toISOString(),
    source,
    tables,
  };
}
