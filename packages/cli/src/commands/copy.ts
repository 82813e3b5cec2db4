import { existsSync, rmSync } from "node:fs";
import { CopyError, type CopyReport, copyDatabase, DEFAULT_COPY_BATCH } from "@tminus/store/copy";
import type { Command } from "commander";
import { type OpenedEndpoint, openCopyEndpoint } from "../copy-endpoints";
import { createCopyProgress } from "../copy-progress";
import { parseDatabaseTarget } from "../database";
import { CliError } from "../errors";
import { formatVerification } from "../verification";

/** `tminus copy`: every table from one database to another, either way, then verified. */
export function registerCopy(program: Command): void {
  program
    .command("copy")
    .description(
      "copy all data between databases (SQLite <-> PostgreSQL), resumable, then verify counts and checksums",
    )
    .requiredOption("--from <file-or-url>", "source: SQLite file or postgres:// URL")
    .requiredOption("--to <file-or-url>", "target: SQLite file or postgres:// URL (migrated first)")
    .option("--force", "empty a target that holds data (or another copy's rows) and copy over it")
    .option("--batch-size <rows>", `rows per batch and transaction (default ${DEFAULT_COPY_BATCH})`)
    .option("--json", "print the verification as JSON")
    .action(async (opts) => {
      const batchSize = parseBatchSize(opts.batchSize);
      const from = await openCopyEndpoint(opts.from, "--from", {
        mustExist: true,
        role: "tminus copy (source)",
      });
      let to: OpenedEndpoint | undefined;
      // A refused copy must not leave behind a SQLite file it created only to refuse.
      const made = newSqliteFile(opts.to);
      let refused = false;
      try {
        to = await openCopyEndpoint(opts.to, "--to", {
          mustExist: false,
          role: "tminus copy (target)",
        });
        const target = to;
        // Committed batches stay: the same command continues from them.
        process.once("SIGINT", () => {
          process.stderr.write(
            "\ntminus: copy interrupted; run the same command again to resume it\n",
          );
          process.exit(130);
        });
        const progress = createCopyProgress(process.stderr);
        const report = await copyDatabase(from.endpoint, target.endpoint, {
          batchSize,
          force: opts.force === true,
          onProgress: (event) => progress.update(event),
        }).catch((error) => {
          progress.finish();
          refused = error instanceof CopyError;
          throw refused ? new CliError(error.message) : error;
        });
        progress.finish();
        printReport(report, from, target, opts.json === true);
        if (!report.ok) {
          const bad = report.tables.filter((t) => !t.ok).map((t) => t.table);
          throw new CliError(
            `verification failed for ${bad.join(", ")}; if the source was written to since an interrupted copy began, stop its writers and copy again with --force`,
          );
        }
      } finally {
        await to?.close();
        await from.close();
        if (made && refused) {
          for (const file of [made, `${made}-wal`, `${made}-shm`]) rmSync(file, { force: true });
        }
      }
    });
}

function printReport(report: CopyReport, from: OpenedEndpoint, to: OpenedEndpoint, json: boolean) {
  if (json) {
    const out = { from: from.endpoint.label, to: to.endpoint.label, ...report };
    process.stdout.write(`${JSON.stringify(out)}\n`);
    return;
  }
  const how = report.resumed ? "resumed and copied" : "copied";
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  process.stdout.write(
    `${how} ${report.copiedRows} rows from ${from.endpoint.label} to ${to.endpoint.label} in ${seconds(report.copyMs)} s, verified in ${seconds(report.verifyMs)} s\n`,
  );
  process.stdout.write(formatVerification(report.tables));
}

/** The path of a SQLite `--to` that does not exist yet, else null. */
function newSqliteFile(value: string): string | null {
  try {
    const target = parseDatabaseTarget(value);
    return target.kind === "sqlite" && !existsSync(target.path) ? target.path : null;
  } catch {
    return null; // opening it reports the problem
  }
}

function parseBatchSize(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 100_000) {
    throw new CliError(`--batch-size must be an integer from 1 to 100000, got "${value}"`);
  }
  return n;
}
