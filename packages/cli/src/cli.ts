#!/usr/bin/env node
import { CommanderError } from "commander";
import { undoCreated } from "./created";
import { CliError, parserErrorLine } from "./errors";
import { createProgram } from "./program";

createProgram()
  .parseAsync(process.argv)
  .catch((err: unknown) => {
    if (err instanceof CommanderError && err.exitCode === 0) process.exit(0); // --help, --version
    if (err instanceof CommanderError && err.code === "commander.help") process.exit(err.exitCode);
    // A command that fails creates nothing: no new database file, no new folder.
    undoCreated();
    if (err instanceof CommanderError) {
      process.stderr.write(`tminus: ${parserErrorLine(err.message)}\n`);
    } else if (err instanceof CliError) {
      process.stderr.write(`tminus: ${err.message}\n`);
    } else {
      process.stderr.write(`tminus: unexpected error: ${(err as Error)?.stack ?? String(err)}\n`);
    }
    process.exit(1);
  });
