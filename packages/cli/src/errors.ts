/** A failure the CLI reports as one line and exit code 1 (no stack trace). */
export class CliError extends Error {}

/**
 * A command-line parser message as one line: commander says "error: unknown option '--dbb'"
 * and, on a line of its own, "(Did you mean --db?)".
 */
export function parserErrorLine(message: string): string {
  return message
    .replace(/^error:\s*/, "")
    .replace(/\s*\n\s*\(Did you mean/, " (did you mean")
    .replace(/\s*\n\s*/g, " ")
    .trim();
}
