import type { Command } from "commander";
import { CliError, DB_OPTION_HELP, loadConfig, openStore, parsePoolSize } from "../options";
import { startServer } from "../server";

/** Where `tminus serve` listens unless `--port` (or PORT) and `--host` say otherwise. */
export const DEFAULT_PORT = 8787;
export const DEFAULT_HOST = "127.0.0.1";

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new CliError(`--port must be an integer from 0 to 65535, got "${value}"`);
  }
  return port;
}

/** Stops on SIGINT/SIGTERM: `close` finishes what is in flight, then the process exits. */
export function stopOnSignals(close: () => Promise<void>): void {
  const stop = () => {
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

/** `tminus serve`: the API, the public routes and (unless `--no-worker`) the webhook worker. */
export function registerServe(program: Command): void {
  program
    .command("serve")
    .description(
      "start the countdown API, public pages and images, and the webhook worker (creates a default account and keys on first start)",
    )
    .option("--db <file-or-url>", DB_OPTION_HELP)
    .option("--port <n>", "port to listen on (env PORT)", process.env.PORT ?? String(DEFAULT_PORT))
    .option("--host <host>", "interface to bind", DEFAULT_HOST)
    .option("--config <file>", "JSON config file overriding plan limits and settings")
    .option("--base-url <url>", "public URL of the service (default: each request's own origin)")
    .option(
      "--no-worker",
      "HTTP only: no webhook worker and no retention purge (run `tminus worker` for those)",
    )
    .option("--no-migrate", "do not migrate the database; refuse to start unless it is current")
    .option("--pool-size <n>", "PostgreSQL connections of this process (default 10)")
    .action(async (opts) => {
      const port = parsePort(opts.port);
      const poolSize = parsePoolSize(opts.poolSize);
      // Without --base-url or a configured base_url, absolute URLs follow each request's Host.
      const config = loadConfig(opts.config, { base_url: opts.baseUrl ?? undefined });
      const { store, path } = await openStore(opts.db, {
        migrate: opts.migrate,
        poolSize,
        role: opts.worker ? "tminus serve" : "tminus serve --no-worker",
      });
      const running = await startServer({
        store,
        config,
        port,
        host: opts.host,
        worker: opts.worker,
      }).catch(async (err: unknown) => {
        await store.close().catch(() => {});
        const code = (err as { code?: unknown } | null)?.code;
        if (code === "EADDRINUSE" || code === "EACCES" || code === "EADDRNOTAVAIL") {
          throw new CliError(`cannot listen on ${opts.host}:${port}: ${(err as Error).message}`);
        }
        throw err;
      });
      const out = process.stdout;
      if (running.bootstrapped) {
        const [sandbox, production] = running.bootstrapped;
        out.write(
          `\nCreated account "default" with two API keys. The secrets are shown ONCE; store them now.\n` +
            `  sandbox     ${sandbox!.secret}\n` +
            `  production  ${production!.secret}\n\n` +
            `Try it:\n  curl -H "Authorization: Bearer ${sandbox!.secret}" ${running.url}/api/v1/usage\n\n` +
            (config.dashboard.enabled
              ? `Dashboard: ${running.url}${config.dashboard.path} (add a user: tminus users create --account default --email you@example.com --role owner)\n\n`
              : ""),
        );
      }
      const role = opts.worker ? "" : ", HTTP only: no webhook worker, no purge";
      out.write(`tminus listening on ${running.url} (database ${path}${role})\n`);
      stopOnSignals(() => running.close());
    });
}
