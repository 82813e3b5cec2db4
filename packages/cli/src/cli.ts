#!/usr/bin/env node
import { Command } from "commander";
import { registerAccounts } from "./commands/accounts";
import { registerKeys } from "./commands/keys";
import { registerRender } from "./commands/render";
import { registerServe } from "./commands/serve";
import { CliError } from "./options";

const program = new Command()
  .name("tminus")
  .description("tminus: the embeddable countdown-timer service")
  .version("0.1.0");

registerServe(program);
registerKeys(program);
registerAccounts(program);
registerRender(program);

program.parseAsync(process.argv).catch((err: unknown) => {
  if (err instanceof CliError) {
    process.stderr.write(`tminus: ${err.message}\n`);
  } else {
    process.stderr.write(`tminus: unexpected error: ${(err as Error)?.stack ?? String(err)}\n`);
  }
  process.exit(1);
});
