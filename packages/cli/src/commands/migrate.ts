import type { Command } from "commander";
import { migrateDatabase, parseDatabaseTarget } from "../database";
import { DB_OPTION_HELP } from "../options";

/** `tminus migrate`: applies pending schema migrations, then exits. */
export function registerMigrate(program: Command): void {
  program
    .command("migrate")
    .description("apply pending database migrations (SQLite or PostgreSQL) and exit")
    .option("--db <file-or-url>", DB_OPTION_HELP)
    .option("--json", "print { database, kind, from, to, applied } as JSON")
    .action(async (opts) => {
      const result = await migrateDatabase(parseDatabaseTarget(opts.db));
      if (opts.json) {
        const { label, ...rest } = result;
        process.stdout.write(`${JSON.stringify({ database: label, ...rest })}\n`);
        return;
      }
      const did =
        result.applied.length > 0 ? `applied ${result.applied.join(", ")}` : "nothing to apply";
      process.stdout.write(`Database ${result.label}: schema at version ${result.to} (${did}).\n`);
    });
}
