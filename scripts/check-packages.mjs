// Publish readiness, on the tarballs users would get: packs every package with the README's
// own command (`pnpm pack:packages`), lints each (publint --strict, arethetypeswrong), checks
// that its declarations mention only files it ships and packages it declares, then runs the
// README's install commands exactly as written, each in an empty folder outside the workspace,
// and uses what they installed: an app on PostgreSQL with no native module and without
// @tminus/render, then SQLite and a GIF over node:http with the dashboard mounted, the `tminus`
// bin, and a type check of every entry point. A README command that fails fails this script,
// so the README cannot drift from the packages (issue 38: it once missed @tminus/admin).
import { execFile, execFileSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative } from "node:path";
import { promisify } from "node:util";
import { npmInstall, provideSqliteBinary } from "./install-app.mjs";
import { root } from "./pack-packages.mjs";
import { readmeBlock } from "./readme-blocks.mjs";

const bin = (name) => join(root, "node_modules", ".bin", name);
const run = (cmd, args, cwd) =>
  execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
const execFileAsync = promisify(execFile);
const runAsync = async (cmd, args, cwd) => (await execFileAsync(cmd, args, { cwd })).stdout;
const problems = [];
const started = performance.now();
const step = (what) =>
  console.log(`[${((performance.now() - started) / 1000).toFixed(1)} s] ${what}`);

const work = mkdtempSync(join(tmpdir(), "tminus-packages-"));
const readme = readFileSync(join(root, "README.md"), "utf8");
try {
  step("pack (the README's clone block)");
  const packed = join(root, "packed");
  runReadmeBlock("pack", root, {
    // CI installed (and built) the workspace just before; doing it again costs minutes.
    skip: (line) => /pnpm@10 install\b/.test(line),
  });
  const tarballs = readdirSync(packed)
    .filter((name) => name.endsWith(".tgz"))
    .map((name) => join(packed, name));
  const linted = [];
  for (const tarball of tarballs) {
    const dir = join(work, "unpacked", basename(tarball, ".tgz"));
    mkdirSync(dir, { recursive: true });
    run("tar", ["xzf", tarball, "-C", dir], root);
    const pkg = JSON.parse(readFileSync(join(dir, "package", "package.json"), "utf8"));
    checkManifest(pkg);
    checkDeclarations(join(dir, "package"), pkg);
    linted.push(lint(tarball, pkg.name));
  }
  // The linters run beside the install: most of either is waiting.
  step("lint (publint --strict, arethetypeswrong) while installing");
  await installAndUse(work, packed);
  await Promise.all(linted);
} finally {
  rmSync(work, { recursive: true, force: true });
}

/**
 * Runs the README's `<!-- check:packages NAME -->` block in `cwd` with bash, line by line as
 * written (continuation lines joined), `T` set to the packed folder, and npm kept to this
 * machine's needs through its environment (no install scripts: see provideSqliteBinary; no
 * audit or funding calls). A failing command is a problem naming the block and the line.
 */
function runReadmeBlock(name, cwd, { skip = () => false, T = join(root, "packed") } = {}) {
  const commands = readmeBlock(readme, name);
  if (commands === null) {
    problems.push(`README.md has no \`<!-- check:packages ${name} -->\` block`);
    return false;
  }
  for (const command of commands.filter((c) => !skip(c))) {
    try {
      execFileSync("bash", ["-euo", "pipefail", "-c", command], {
        cwd,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
        env: {
          ...process.env,
          T,
          npm_config_ignore_scripts: "true",
          npm_config_audit: "false",
          npm_config_fund: "false",
          npm_config_prefer_offline: "true",
          npm_config_update_notifier: "false",
        },
      });
    } catch (error) {
      const said = `${error.stdout ?? ""}${error.stderr ?? ""}`.trim().split("\n").slice(-6);
      problems.push(`README.md's "${name}" block: \`${command}\` failed:\n  ${said.join("\n  ")}`);
      return false;
    }
  }
  return true;
}

if (problems.length > 0) {
  console.error(`\n${problems.length} problem(s):\n${problems.map((p) => `- ${p}`).join("\n")}`);
  process.exit(1);
}
step("every package is publish-ready and works installed from its tarball");

async function lint(tarball, name) {
  for (const [tool, args] of [
    ["publint", ["run", tarball, "--strict"]],
    ["attw", [tarball, "--format", "ascii"]],
  ]) {
    try {
      await execFileAsync(bin(tool), args, { cwd: root });
    } catch (error) {
      problems.push(`${name}: ${tool} failed\n${error.stdout}${error.stderr}`);
    }
  }
}

function checkManifest(pkg) {
  const text = JSON.stringify(pkg);
  if (text.includes("workspace:"))
    problems.push(`${pkg.name}: package.json keeps a workspace: range`);
  for (const field of ["license", "repository", "homepage", "engines", "files"]) {
    if (pkg[field] === undefined) problems.push(`${pkg.name}: package.json has no "${field}"`);
  }
}

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

/**
 * Every module a declaration file names must be in the tarball (a relative path) or be a
 * package the manifest declares (or a Node built-in): users have nothing else.
 */
function checkDeclarations(dir, pkg) {
  const declared = new Set([
    pkg.name,
    ...Object.keys(pkg.dependencies ?? {}),
    ...Object.keys(pkg.peerDependencies ?? {}),
  ]);
  const shipped = new Set(files(dir));
  for (const file of [...shipped].filter((f) => /\.d\.c?ts$/.test(f))) {
    const text = readFileSync(file, "utf8");
    const where = `${pkg.name}/${relative(dir, file)}`;
    const specifiers = [
      ...text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g),
      ...text.matchAll(/\/\/\/\s*<reference\s+(?:path|types)=['"]([^'"]+)['"]/g),
    ].map((m) => m[1]);
    for (const spec of specifiers) {
      if (spec.startsWith(".")) {
        const target = join(dirname(file), spec);
        const candidates = [
          target,
          ...[".d.ts", ".d.cts", ".d.mts"].map((e) => target.replace(/\.(c|m)?js$/, "") + e),
        ];
        if (!candidates.some((c) => shipped.has(c)))
          problems.push(`${where} names ${spec}, not in the package`);
      } else if (spec.startsWith("/") || /^[A-Za-z]:/.test(spec)) {
        problems.push(`${where} names an absolute path ${spec}`);
      } else if (!spec.startsWith("node:")) {
        const name = spec.startsWith("@")
          ? spec.split("/").slice(0, 2).join("/")
          : spec.split("/")[0];
        if (!declared.has(name))
          problems.push(`${where} names ${name}, which ${pkg.name} does not declare`);
      }
    }
  }
}

/** The Fastify the workspace tests against (an optional peer: users bring their own). */
function fastifyVersion() {
  const http = JSON.parse(readFileSync(join(root, "packages", "http", "package.json"), "utf8"));
  return http.devDependencies.fastify;
}

async function installAndUse(work) {
  const installCheck = (app) => {
    for (const file of readdirSync(join(root, "scripts", "install-check"))) {
      copyFileSync(join(root, "scripts", "install-check", file), join(app, file));
    }
  };

  step("README's PostgreSQL install, in an empty folder: then an app on it, no renderer");
  const pgApp = join(work, "postgres-app");
  mkdirSync(pgApp);
  if (runReadmeBlock("postgres", pgApp)) {
    for (const absent of ["@tminus/render", "better-sqlite3"]) {
      if (existsSync(join(pgApp, "node_modules", absent))) {
        problems.push(`the PostgreSQL-only install pulled in ${absent}`);
      }
    }
    installCheck(pgApp);
    if (!process.env.TMINUS_TEST_PG_URL) {
      problems.push("TMINUS_TEST_PG_URL is not set: the PostgreSQL-only app needs a server");
    } else {
      console.log((await runAsync(process.execPath, ["postgres-only.mjs"], pgApp)).trim());
    }
  }

  step("README's install of everything, in an empty folder: SQLite, images, dashboard, the CLI");
  const app = join(work, "app");
  mkdirSync(app);
  if (!runReadmeBlock("everything", app)) return;
  installCheck(app);
  // Not the README's: Fastify, an optional peer, for the @tminus/http/fastify check.
  await npmInstall(app, [`fastify@${fastifyVersion()}`]);
  await provideSqliteBinary(app);
  console.log((await runAsync(process.execPath, ["full.mjs"], app)).trim());

  const tminus = join(app, "node_modules", ".bin", "tminus");
  const version = (await runAsync(tminus, ["--version"], app)).trim();
  const expected = JSON.parse(readFileSync(join(root, "packages", "cli", "package.json"))).version;
  if (version !== expected) problems.push(`tminus --version printed "${version}", not ${expected}`);
  const key = JSON.parse(
    await runAsync(
      tminus,
      ["keys", "create", "--env", "sandbox", "--db", join(app, "keys", "k.db"), "--json"],
      app,
    ),
  );
  if (!key.secret?.startsWith("svc_test_"))
    problems.push("tminus keys create printed no sandbox secret");
  console.log(`bin: tminus ${version}; keys create issued ${key.prefix}`);

  // skipLibCheck: checking all of @types/node and zod would double this script's time; what
  // our declarations import is checked above (checkDeclarations).
  step("types: every entry point from the installed packages (nodenext)");
  try {
    await runAsync(
      bin("tsc"),
      [
        "--noEmit",
        "--strict",
        "--module",
        "nodenext",
        "--moduleResolution",
        "nodenext",
        "--target",
        "es2022",
        "--types",
        "node",
        "--skipLibCheck",
        "types.mts",
      ],
      app,
    );
  } catch (error) {
    problems.push(`installed types do not check:\n${error.stdout}${error.stderr}`);
  }
}
