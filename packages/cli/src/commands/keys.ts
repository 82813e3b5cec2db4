import { AdminError, type ApiKeyView, createAdmin } from "@tminus/http";
import type { Environment } from "@tminus/store";
import type { Command } from "commander";
import { CliError, loadConfig, openStore } from "../options";

function parseEnv(value: string): Environment {
  if (value !== "sandbox" && value !== "production") {
    throw new CliError(`--env must be sandbox or production, got "${value}"`);
  }
  return value;
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(",").filter(Boolean)];
}

async function withAdmin<T>(
  opts: { db?: string; config?: string },
  run: (admin: ReturnType<typeof createAdmin>) => Promise<T>,
): Promise<T> {
  const { store } = openStore(opts.db);
  try {
    return await run(createAdmin({ store, config: loadConfig(opts.config) }));
  } catch (err) {
    if (err instanceof AdminError) throw new CliError(err.message);
    throw err;
  } finally {
    await store.close();
  }
}

function table(keys: ApiKeyView[]): string {
  if (keys.length === 0) return "no keys\n";
  const rows = keys.map((k) => [
    k.id,
    k.prefix,
    k.environment,
    k.account,
    k.scopes.join(","),
    k.revoked_at ? `revoked ${k.revoked_at}` : "live",
  ]);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return `${rows.map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join("  ")).join("\n")}\n`;
}

/** `tminus keys create|list|revoke`. */
export function registerKeys(program: Command): void {
  const keys = program.command("keys").description("issue, list and revoke API keys");
  const common = (cmd: Command) =>
    cmd
      .option("--db <file>", "SQLite database file (env TMINUS_DB)")
      .option("--config <file>", "JSON config file (plan key limits)");

  common(
    keys
      .command("create")
      .description("issue a key; the secret is printed once")
      .requiredOption("--env <environment>", "sandbox or production")
      .option("--account <name>", "account name (created if missing)", "default")
      .option("--plan <plan>", "plan of the account (starter, growth, ...)")
      .option("--scope <scope>", "limit the key to scopes (repeatable, comma-separated)", collect)
      .option("--json", "print one JSON object"),
  ).action(async (opts) => {
    const key = await withAdmin(opts, (admin) =>
      admin.issueKey({
        account: opts.account,
        environment: parseEnv(opts.env),
        plan: opts.plan,
        scopes: opts.scope,
      }),
    );
    if (opts.json) process.stdout.write(`${JSON.stringify(key)}\n`);
    else {
      process.stdout.write(
        `Created ${key.environment} key ${key.id} for account "${key.account}".\n` +
          `Secret (shown once, store it now): ${key.secret}\n`,
      );
    }
  });

  common(
    keys
      .command("list")
      .description("list keys (never their secrets)")
      .option("--account <name>", "only this account")
      .option("--env <environment>", "only this environment")
      .option("--json", "print a JSON array"),
  ).action(async (opts) => {
    const list = await withAdmin(opts, (admin) =>
      admin.listKeys({
        account: opts.account,
        environment: opts.env ? parseEnv(opts.env) : undefined,
      }),
    );
    process.stdout.write(opts.json ? `${JSON.stringify(list)}\n` : table(list));
  });

  common(
    keys
      .command("revoke <id-or-prefix>")
      .description("revoke a key; it stops working on its next request")
      .option("--account <name>", "only within this account")
      .option("--json", "print the revoked key as JSON"),
  ).action(async (idOrPrefix: string, opts) => {
    const key = await withAdmin(opts, (admin) =>
      admin.revokeKey(idOrPrefix, { account: opts.account }),
    );
    process.stdout.write(
      opts.json
        ? `${JSON.stringify(key)}\n`
        : `Revoked ${key.environment} key ${key.prefix} (${key.id}).\n`,
    );
  });
}
