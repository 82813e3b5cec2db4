import { AdminError, type ApiKeyView, createAdmin } from "@tminus/admin";
import type { Environment } from "@tminus/store";
import type { Command } from "commander";
import { CliError, DB_OPTION_HELP, loadConfig, openStore } from "../options";
import { printResult } from "../output";
import { columns } from "../table";

function parseEnv(value: string): Environment {
  if (value !== "sandbox" && value !== "production") {
    throw new CliError(`--env must be sandbox or production, got "${value}"`);
  }
  return value;
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(",").filter(Boolean)];
}

/** Runs `run` with an admin over the `--db` store; `AdminError`s become one-line CLI errors. */
export async function withAdmin<T>(
  opts: { db?: string; config?: string; baseUrl?: string },
  run: (admin: ReturnType<typeof createAdmin>) => Promise<T>,
  /** Only `create` may make a new database; the others read or change what is there. */
  mustExist = true,
): Promise<T> {
  const config = loadConfig(opts.config, { base_url: opts.baseUrl ?? undefined });
  const { store } = await openStore(opts.db, { role: "tminus admin", poolSize: 2, mustExist });
  try {
    return await run(createAdmin({ store, config }));
  } catch (err) {
    if (err instanceof AdminError) throw new CliError(err.message);
    throw err;
  } finally {
    await store.close();
  }
}

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `90s`, `30m`, `24h`, `7d` (or plain seconds) in milliseconds. */
export function parseDuration(value: string, flag: string): number {
  const m = /^(\d{1,7})([smhd]?)$/.exec(value.trim());
  if (!m) throw new CliError(`${flag} must be a duration like 90s, 30m, 24h or 7d, got "${value}"`);
  return Number(m[1]) * UNIT_MS[m[2] || "s"]!;
}

function status(k: ApiKeyView): string {
  if (k.status === "revoked") return `revoked ${k.revoked_at}`;
  if (k.status === "expiring") return `live until ${k.expires_at}`;
  if (k.status === "expired") return `expired ${k.expires_at}`;
  return "live";
}

function table(keys: ApiKeyView[]): string {
  if (keys.length === 0) return "no keys\n";
  return columns(
    keys.map((k) => [
      k.id,
      k.prefix,
      k.environment,
      k.account,
      k.scopes.join(","),
      status(k),
      k.name ?? "",
    ]),
  );
}

/** `tminus keys create|list|revoke`. */
export function registerKeys(program: Command): void {
  const keys = program.command("keys").description("issue, list, roll and revoke API keys");
  const common = (cmd: Command) =>
    cmd
      .option("--db <file-or-url>", DB_OPTION_HELP)
      .option("--config <file>", "JSON config file (plan key limits)");

  common(
    keys
      .command("create")
      .description("issue a key; the secret is printed once")
      .requiredOption("--env <environment>", "sandbox or production")
      .option("--account <name>", "account name (created if missing)", "default")
      .option("--plan <plan>", "plan of the account (starter, growth, ...)")
      .option("--scope <scope>", "limit the key to scopes (repeatable, comma-separated)", collect)
      .option("--name <text>", "a note of where the key is used (shown in lists)")
      .option("--json", "print one JSON object"),
  ).action(async (opts) => {
    // Checked before the database is opened (or made): a refused flag touches nothing.
    const environment = parseEnv(opts.env);
    const key = await withAdmin(
      opts,
      (admin) =>
        admin.issueKey({
          account: opts.account,
          environment,
          plan: opts.plan,
          scopes: opts.scope,
          name: opts.name,
        }),
      false,
    );
    printResult(
      opts.json,
      key,
      (k) =>
        `Created ${k.environment} key ${k.id} for account "${k.account}".\n` +
        `Secret (shown once, store it now): ${k.secret}\n`,
    );
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
    printResult(opts.json, list, table);
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
    printResult(opts.json, key, (k) => `Revoked ${k.environment} key ${k.prefix} (${k.id}).\n`);
  });

  common(
    keys
      .command("roll <id-or-prefix>")
      .description(
        "rotate a key without a gap: issue its replacement (secret printed once) and end the old key later",
      )
      .option("--expires-in <duration>", "how long the old key keeps working (max 30d)", "24h")
      .option("--account <name>", "only within this account")
      .option("--json", "print { replacement, rolled } as JSON"),
  ).action(async (idOrPrefix: string, opts) => {
    const expiresInMs = parseDuration(opts.expiresIn, "--expires-in");
    const { replacement, rolled } = await withAdmin(opts, (admin) =>
      admin.rollKey(idOrPrefix, { account: opts.account, expiresInMs }),
    );
    printResult(
      opts.json,
      { replacement, rolled },
      () =>
        `Rolled ${rolled.environment} key ${rolled.prefix}: it keeps working until ${rolled.expires_at}.\n` +
        `Replacement ${replacement.id} for account "${replacement.account}".\n` +
        `Secret (shown once, store it now): ${replacement.secret}\n`,
    );
  });
}
