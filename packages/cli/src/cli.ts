#!/usr/bin/env node
import { CliError } from "./errors";
import { createProgram } from "./program";

createProgram()
  .parseAsync(process.argv)
  .catch((err: unknown) => {
    if (err instanceof CliError) {
      process.stderr.write(`tminus: ${err.message}\n`);
    } else {
      process.stderr.write(`tminus: unexpected error: ${(err as Error)?.stack ?? String(err)}\n`);
    }
    process.exit(1);
  });
