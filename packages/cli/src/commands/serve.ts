import type { Command } from "commander";
import { CliError, loadConfig, openStore } from "../options";
import { startServer } from "../server";

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new CliError(`--port must be an integer from 0 to 65535, got "${value}"`);
  }
  return port;
}

/** `tminus serve`: the API on the embedded SQLite store. */
export function registerServe(program: Command): void {
  program
    .command("serve")
    .description("start the countdown API (creates a default account and keys on first start)")
    .option("--db <file>", "SQLite database file (env TMINUS_DB)", undefined)
    .option("--port <n>", "port to listen on (env PORT)", process.env.PORT ?? "8787")
    .option("--host <host>", "interface to bind", "127.0.0.1")
    .option("--config <file>", "JSON config file overriding plan limits and settings")
    .option("--base-url <url>", "public URL of the service (default http://<host>:<port>)")
    .action(async (opts) => {
      const port = parsePort(opts.port);
      const { store, path } = openStore(opts.db);
      const fallbackBase = `http://${opts.host === "0.0.0.0" ? "localhost" : opts.host}:${port}`;
      const config = loadConfig(opts.config, { base_url: opts.baseUrl ?? undefined });
      const base = opts.baseUrl ?? (opts.config && config.base_url) ?? fallbackBase;
      const running = await startServer({
        store,
        config: { ...config, base_url: base.replace(/\/+$/, "") },
        port,
        host: opts.host,
      });
      const out = process.stdout;
      if (running.bootstrapped) {
        const [sandbox, production] = running.bootstrapped;
        out.write(
          `\nCreated account "default" with two API keys. The secrets are shown ONCE; store them now.\n` +
            `  sandbox     ${sandbox!.secret}\n` +
            `  production  ${production!.secret}\n\n` +
            `Try it:\n  curl -H "Authorization: Bearer ${sandbox!.secret}" ${running.url}/api/v1/usage\n\n`,
        );
      }
      out.write(`tminus listening on ${running.url} (database ${path})\n`);
      const stop = () => {
        running.close().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
}
