// Which of `--out-dir`, `--out-tar` and `--manifest` a batch writes to: the flags checked
// together (one line for a combination that cannot work), then the sinks opened.
import { rmSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { makeFolder } from "../created";
import { CliError } from "../errors";
import { userPath } from "../paths";
import { type ManifestWriter, manifestWriter } from "./manifest";
import { folderSink, type ImageSink, tarSink } from "./sinks";

/** The output flags of `render --batch`. */
export interface DestinationFlags {
  out?: string;
  outDir?: string;
  outTar?: string;
  manifest?: string;
}

/** Where a batch goes, checked but not opened yet. */
export interface Destination {
  kind: "dir" | "tar";
  /** The folder or tar file (absolute), or "-" for standard output. */
  path: string;
  /** The manifest file (absolute), if any. */
  manifest: string | undefined;
  /** Standard output carries the tar: the summary line goes to stderr. */
  stdoutTaken: boolean;
}

/** Checks the output flags of a batch; throws a one-line CliError for a combination that cannot work. */
export function checkDestination(flags: DestinationFlags, stdoutIsTty: boolean): Destination {
  if (flags.out) throw new CliError("--batch writes to --out-dir DIR or --out-tar FILE, not --out");
  if (flags.outDir && flags.outTar)
    throw new CliError("give one of --out-dir DIR or --out-tar FILE, not both");
  if (!flags.outDir && !flags.outTar)
    throw new CliError("--batch needs --out-dir DIR or --out-tar FILE for the images");
  const toStdout = flags.outTar === "-";
  if (toStdout && stdoutIsTty)
    throw new CliError(
      "--out-tar - writes a tar stream to standard output, which is a terminal; pipe it or give a file",
    );
  const path = flags.outDir ? userPath(flags.outDir) : toStdout ? "-" : userPath(flags.outTar!);
  let manifest: string | undefined;
  if (flags.manifest !== undefined) {
    if (flags.manifest === "-" || flags.manifest === "")
      throw new CliError("--manifest needs a file name (standard output is for --out-tar -)");
    manifest = userPath(flags.manifest);
    if (!toStdout && resolve(manifest) === resolve(path))
      throw new CliError(`--manifest ${flags.manifest} is the file the images go to`);
  }
  if (flags.outTar && !toStdout && statOrNull(path)?.isDirectory())
    throw new CliError(`--out-tar ${path} is a folder, not a file`);
  if (manifest && statOrNull(manifest)?.isDirectory())
    throw new CliError(`--manifest ${manifest} is a folder, not a file`);
  return { kind: flags.outDir ? "dir" : "tar", path, manifest, stdoutTaken: toStdout };
}

/** The sinks of a checked destination; folders are made (and undone if the batch cannot start). */
export function openDestination(
  where: Destination,
  mtimeSeconds: number,
): { images: ImageSink; manifest: ManifestWriter | null } {
  if (where.kind === "dir") makeOutDir(where.path);
  else if (where.path !== "-") makeParent(where.path, "--out-tar");
  if (where.manifest) makeParent(where.manifest, "--manifest");
  const images = where.kind === "dir" ? folderSink(where.path) : tarSink(where.path, mtimeSeconds);
  return { images, manifest: where.manifest ? manifestWriter(where.manifest) : null };
}

/** Removes the tar file and the manifest a batch made (never standard output, never a folder). */
export function removeFiles(where: Destination): void {
  if (where.kind === "tar" && where.path !== "-") rmSync(where.path, { force: true });
  if (where.manifest) rmSync(where.manifest, { force: true });
}

function makeOutDir(dir: string): void {
  if (statOrNull(dir)?.isFile()) throw new CliError(`--out-dir ${dir} is a file, not a folder`);
  try {
    makeFolder(dir);
  } catch (err) {
    throw new CliError(`cannot make --out-dir ${dir}: ${(err as Error).message}`);
  }
}

function makeParent(file: string, flag: string): void {
  try {
    makeFolder(dirname(file));
  } catch (err) {
    throw new CliError(`cannot make the folder of ${flag} ${file}: ${(err as Error).message}`);
  }
}

function statOrNull(path: string) {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}
