import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { delimiter, join } from "node:path";
import { CliError } from "./errors";

/**
 * The PostgreSQL client programs `backup` and `restore` run: on PATH, else the newest
 * `/usr/lib/postgresql/<major>/bin` (Debian installs them there). Null when missing.
 */
export function findPgTool(name: "pg_dump" | "pg_restore"): string | null {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const majors = readdirSync(root)
    .filter((d) => /^\d+$/.test(d))
    .sort((a, b) => Number(b) - Number(a));
  for (const major of majors) {
    const path = join(root, major, "bin", name);
    if (existsSync(path)) return path;
  }
  return null;
}

/**
 * The documented dump: custom format (compressed, restorable table by table), no owners or
 * grants (the restoring user owns everything), and, when given, the snapshot the manifest's
 * checksums were read in.
 */
export function pgDumpArgs(url: string, out: string, snapshot?: string): string[] {
  const args = ["--format=custom", "--no-owner", "--no-privileges"];
  if (snapshot) args.push(`--snapshot=${snapshot}`);
  return [...args, `--file=${out}`, `--dbname=${url}`];
}

/** The documented restore: all or nothing, stopping at the first error. */
export function pgRestoreArgs(url: string, file: string): string[] {
  return [
    "--no-owner",
    "--no-privileges",
    "--exit-on-error",
    "--single-transaction",
    `--dbname=${url}`,
    file,
  ];
}

/** A command line to print, the password of any URL in it hidden. */
export function showCommand(program: string, args: string[]): string {
  return [program, ...args]
    .map((arg) => arg.replace(/(postgres(?:ql)?:\/\/[^:/@]+:)[^@]*@/, "$1***@"))
    .map((arg) => (/^[\w./=:@-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`))
    .join(" ");
}

/** Runs a PostgreSQL client program; its stderr becomes the one-line error when it fails. */
export function runPgTool(program: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.once("error", (error) => reject(new CliError(`${program}: ${error.message}`)));
    child.once("exit", (code) => {
      if (code === 0) resolve();
      else {
        const first = stderr.trim().split("\n")[0] ?? "";
        const name = program.split("/").at(-1);
        reject(new CliError(`${name} failed (exit ${code}): ${first.replace(/^\S+: /, "")}`));
      }
    });
  });
}
