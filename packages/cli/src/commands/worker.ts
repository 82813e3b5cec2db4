import type { Command } from "commander";
import { DB_OPTION_HELP, loadConfig, openStore, parsePoolSize } from "../options";
import { startWorker } from "../worker";
import { stopOnSignals } from "./serve";

/** `tminus worker`: webhook deliveries and the retention purge, no HTTP. */
export function registerWorker(program: Command): void {
  program
    .command("worker")
    .description(
      "run the webhook worker and the retention purge without HTTP (beside `serve --no-worker` processes)",
    )
    .option("--db <file-or-url>", DB_OPTION_HELP)
    .option("--config <file>", "JSON config file (webhook settings, retention)")
    .option(
      "--base-url <url>",
      "public URL of the API, for the timer URLs in event payloads (default: the config's base_url)",
    )
    .option("--no-migrate", "do not migrate the database; refuse to start unless it is current")
    .option("--pool-size <n>", "PostgreSQL connections of this process (default 10)")
    .action(async (opts) => {
      const poolSize = parsePoolSize(opts.poolSize);
      const config = loadConfig(opts.config, { base_url: opts.baseUrl ?? undefined });
      const { store, path } = await openStore(opts.db, {
        migrate: opts.migrate,
        poolSize,
        role: "tminus worker",
      });
      const running = startWorker({ store, config });
      process.stdout.write(`tminus worker running (database ${path})\n`);
      stopOnSignals(() => running.close());
    });
}
