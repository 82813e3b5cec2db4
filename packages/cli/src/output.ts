/**
 * Prints a command's result: one line of JSON under `--json` (for scripts), else the text
 * `human` makes of it (for people).
 */
export function printResult<T>(
  json: boolean | undefined,
  value: T,
  human: (value: T) => string,
): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : human(value));
}
