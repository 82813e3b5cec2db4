/** A failure the CLI reports as one line and exit code 1 (no stack trace). */
export class CliError extends Error {}
