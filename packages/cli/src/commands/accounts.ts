import { AdminError, createAdmin } from "@tminus/admin";
import type { Account } from "@tminus/store";
import type { Command } from "commander";
import { CliError, DB_OPTION_HELP, loadConfig, openStore } from "../options";
import { columns } from "../table";

/** `accounts list` without --json: one aligned line per account, like `keys list`. */
function accountTable(accounts: Account[]): string {
  if (accounts.length === 0) return "no accounts\n";
  return columns(
    accounts.map((a) => [a.id, a.name, a.plan, a.status, new Date(a.created_at).toISOString()]),
  );
}

/** `tminus accounts list|create|suspend|activate`. */
export function registerAccounts(program: Command): void {
  const accounts = program
    .command("accounts")
    .description("list, create, suspend, reactivate accounts");
  const run = (
    name: string,
    description: string,
    action: (
      admin: ReturnType<typeof createAdmin>,
      arg: string | undefined,
      opts: Record<string, string>,
    ) => Promise<unknown>,
    withArg = true,
  ) => {
    const cmd = accounts
      .command(withArg ? `${name} <name>` : name)
      .description(description)
      .option("--db <file-or-url>", DB_OPTION_HELP)
      .option("--config <file>", "JSON config file")
      .option("--json", name === "list" ? "print a JSON array" : "print JSON");
    if (name === "create") cmd.option("--plan <plan>", "plan (starter, growth, ...)");
    cmd.action(async (...args: unknown[]) => {
      const arg = withArg ? (args[0] as string) : undefined;
      const opts = (withArg ? args[1] : args[0]) as Record<string, string>;
      const config = loadConfig(opts.config);
      // Only `create` may make a new database; the others read or change what is there.
      const { store } = await openStore(opts.db, {
        role: "tminus accounts",
        poolSize: 2,
        mustExist: name !== "create",
      });
      try {
        const result = await action(createAdmin({ store, config }), arg, opts);
        if (name === "list" && !opts.json) process.stdout.write(accountTable(result as Account[]));
        else process.stdout.write(`${JSON.stringify(result, null, opts.json ? undefined : 2)}\n`);
      } catch (err) {
        if (err instanceof AdminError) throw new CliError(err.message);
        throw err;
      } finally {
        await store.close();
      }
    });
  };
  run("list", "list accounts", (admin) => admin.listAccounts(), false);
  run("create", "create an account", (admin, name, opts) => admin.ensureAccount(name!, opts.plan));
  run("suspend", "suspend an account: its keys answer 403 suspended", (admin, name) =>
    admin.suspendAccount(name!),
  );
  run("activate", "reactivate a suspended account", (admin, name) => admin.activateAccount(name!));
}
