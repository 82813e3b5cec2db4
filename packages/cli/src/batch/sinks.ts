// Where the images of a batch go: files in a folder (`--out-dir`), or one tar stream
// (`--out-tar FILE`, `-` for standard output). Both take one image at a time and make the
// batch wait when the disk or the reader falls behind, so memory stays bounded.
import { writeFile } from "node:fs";
import { join } from "node:path";
import { CliError } from "../errors";
import { type ByteOutput, openOutput } from "./output";
import { tarEnd, tarHeader, tarPadding } from "./tar";

/** A destination of images. */
export interface ImageSink {
  /** What the summary line names: the folder, the tar file, or "standard output". */
  readonly where: string;
  /** Resolves when the image is taken; rejects with a one-line CliError when it cannot be written. */
  write(file: string, bytes: Uint8Array): Promise<void>;
  /** Finishes what is in flight (the tar's end blocks); rejects like `write`. */
  close(): Promise<void>;
}

/** File writes in flight at most (the others wait): enough to keep the disk busy. */
const WRITES_IN_FLIGHT = 8;

/**
 * One file per image in `dir`, written on libuv's threads: creating a file costs 0.2 to 2 ms
 * of the kernel's time on a busy ext4 disk, as much as rendering the image, and written
 * synchronously it would stop the caller's thread, which renders too (bench/README.md).
 */
export function folderSink(dir: string): ImageSink {
  let inFlight = 0;
  let failed: CliError | null = null;
  const waiting: Array<() => void> = [];
  const settled = () => {
    inFlight--;
    waiting.shift()?.();
  };
  return {
    where: dir,
    async write(file, bytes) {
      while (inFlight >= WRITES_IN_FLIGHT && !failed)
        await new Promise<void>((resolve) => waiting.push(resolve));
      if (failed) throw failed;
      const path = join(dir, file);
      inFlight++;
      writeFile(path, bytes, (err) => {
        // A folder that takes no files fails every image alike: the batch stops at the first.
        if (err) failed ??= new CliError(`cannot write ${path}: ${err.message}`);
        settled();
      });
    },
    async close() {
      while (inFlight > 0) await new Promise<void>((resolve) => waiting.push(resolve));
      if (failed) throw failed;
    },
  };
}

/** One ustar stream to `path` (`-`: standard output), each entry stamped `mtime` (seconds). */
export function tarSink(path: string, mtime: number): ImageSink {
  const where = path === "-" ? "standard output" : path;
  let out: ByteOutput;
  try {
    out = openOutput(path);
  } catch (err) {
    throw new CliError(`cannot write --out-tar ${path}: ${(err as Error).message}`);
  }
  const failure = (err: unknown) =>
    new CliError(`cannot write --out-tar ${where}: ${(err as Error).message}`);
  return {
    where,
    async write(file, bytes) {
      try {
        await out.write(tarHeader({ name: file, size: bytes.length, mtime }));
        await out.write(bytes);
        await out.write(tarPadding(bytes.length));
      } catch (err) {
        throw failure(err);
      }
    },
    async close() {
      try {
        await out.write(tarEnd());
        await out.close();
      } catch (err) {
        throw failure(err);
      }
    },
  };
}
