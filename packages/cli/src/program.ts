import { Command } from "commander";
import { registerAccounts } from "./commands/accounts";
import { registerBackup, registerRestore } from "./commands/backup";
import { registerCopy } from "./commands/copy";
import { registerKeys } from "./commands/keys";
import { registerMigrate } from "./commands/migrate";
import { registerRender } from "./commands/render";
import { registerServe } from "./commands/serve";
import { registerUsers } from "./commands/users";
import { registerWorker } from "./commands/worker";

/** The `tminus` command line, every command registered; `cli.ts` parses `process.argv` with it. */
export function createProgram(): Command {
  const program = new Command()
    .name("tminus")
    .description("tminus: the embeddable countdown-timer service")
    .version("0.1.0")
    // Parser errors (unknown or missing flags) are thrown, not printed: cli.ts prints them as
    // one `tminus:` line like every other error. Commands added below inherit both settings.
    .exitOverride()
    .configureOutput({ outputError: () => {} });
  registerServe(program);
  registerWorker(program);
  registerMigrate(program);
  registerKeys(program);
  registerAccounts(program);
  registerRender(program);
  registerUsers(program);
  registerCopy(program);
  registerBackup(program);
  registerRestore(program);
  return program;
}
