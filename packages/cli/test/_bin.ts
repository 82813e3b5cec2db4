// The built `tminus` binary run in a folder of the test's choosing, with the environment a
// surrounding `pnpm test` set cleared, so relative paths are the test's own.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const run = promisify(execFile);

/** The environment without package-manager variables (INIT_CWD, npm_*) or TMINUS_*, plus `extra`. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (name.startsWith("npm_") || name === "INIT_CWD" || name.startsWith("TMINUS_")) {
      delete env[name];
    }
  }
  return { ...env, ...extra };
}

/** Runs `tminus <args>` in `cwd` to its end. */
export async function runBin(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = cleanEnv(),
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], { cwd, env });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
