// Installs packages into an app folder outside the workspace with plain npm, as a user would,
// and gives better-sqlite3 its native module without reaching GitHub. Used by
// check-packages.mjs and by the Next.js example's test:
// `node scripts/install-app.mjs APP_DIR [npm install args...]`.
import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const root = fileURLToPath(new URL("..", import.meta.url));
const execFileAsync = promisify(execFile);
const runAsync = async (cmd, args, cwd) => (await execFileAsync(cmd, args, { cwd })).stdout;
const fromStore = createRequire(join(root, "packages", "store", "package.json"));

/** `npm install` in `app`, install scripts skipped (see provideSqliteBinary). */
export async function npmInstall(app, specs) {
  await runAsync(
    "npm",
    ["install", "--no-audit", "--no-fund", "--prefer-offline", "--ignore-scripts", ...specs],
    app,
  );
}

/** The better-sqlite3 the workspace built: its native module is copied rather than rebuilt. */
export function workspaceSqliteVersion() {
  return JSON.parse(readFileSync(fromStore.resolve("better-sqlite3/package.json"), "utf8")).version;
}

/**
 * Install scripts are skipped (npm 11 runs a dependency's only once approved, and this machine
 * may not reach GitHub, where better-sqlite3's prebuilt binaries live). Its native module is
 * copied from the workspace when the versions match, else built here. Nothing to do when the
 * app has no better-sqlite3.
 */
export async function provideSqliteBinary(app) {
  const target = join(app, "node_modules", "better-sqlite3");
  const binary = join("build", "Release", "better_sqlite3.node");
  if (!existsSync(target) || existsSync(join(target, binary))) return;
  const ours = dirname(realpathSync(fromStore.resolve("better-sqlite3/package.json")));
  const version = (dir) => JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).version;
  if (version(ours) === version(target) && existsSync(join(ours, binary))) {
    mkdirSync(join(target, "build", "Release"), { recursive: true });
    copyFileSync(join(ours, binary), join(target, binary));
  } else {
    await runAsync("npm", ["rebuild", "better-sqlite3"], app);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [app, ...specs] = process.argv.slice(2);
  const dir = resolve(app);
  await npmInstall(dir, specs);
  await provideSqliteBinary(dir);
}
