// Where relative paths on the command line are relative to. A package manager runs a
// script in the package's folder, not where the user typed the command: `pnpm tminus
// render --out x.gif` from packages/site would otherwise write x.gif at the workspace
// root. npm, pnpm, yarn and bun all say where the user was in INIT_CWD.
import { isAbsolute, resolve } from "node:path";

/**
 * Whether this process is the command of a package-manager script: `npm_lifecycle_event`
 * is set and the script's text starts with this CLI (`tminus ...`, `node .../cli.js ...`).
 * The environment is inherited, so a tminus started by some other program that itself runs
 * under `npm test` (with a `cwd` of its own) must not take INIT_CWD for its folder.
 */
function runByScript(env: NodeJS.ProcessEnv, cwd: string, argv: readonly string[]): boolean {
  if (!env.npm_lifecycle_event || !env.INIT_CWD) return false;
  const script = env.npm_lifecycle_script;
  // A manager that names the event but not the script: take its word.
  if (script === undefined) return true;
  // Past the runners (`npx tminus`, `pnpm exec tminus`): the command itself.
  const words = script.trim().split(/\s+/);
  let at = 0;
  while (RUNNERS.has(words[at] ?? "")) at++;
  const command = words[at] ?? "";
  if (command === "tminus" || command.endsWith("/tminus")) return true;
  // `node packages/cli/dist/cli.js`: the file node runs is this one.
  const file = words[at + 1];
  const self = argv[1];
  return (
    command === "node" &&
    file !== undefined &&
    self !== undefined &&
    resolve(cwd, file) === resolve(self)
  );
}

const RUNNERS = new Set([
  "npx",
  "bunx",
  "pnpm",
  "yarn",
  "bun",
  "npm",
  "exec",
  "dlx",
  "x",
  "-y",
  "--yes",
]);

/**
 * The folder the user ran the command in: INIT_CWD when this process is a package-manager
 * script that runs `tminus` (`pnpm tminus ...` from anywhere in the workspace), else the
 * process's working directory.
 */
export function invocationDir(
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
  argv: readonly string[] = process.argv,
): string {
  return runByScript(env, cwd, argv) ? resolve(cwd, env.INIT_CWD!) : cwd;
}

/** A path from the command line (or the environment), absolute, from {@link invocationDir}. */
export function userPath(path: string, env: NodeJS.ProcessEnv = process.env): string {
  return isAbsolute(path) ? path : resolve(invocationDir(env), path);
}
