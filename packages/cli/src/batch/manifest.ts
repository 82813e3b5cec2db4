// `render --batch --manifest FILE.jsonl`: one JSON line per image written, in the order the
// images were written, for an email platform's import (which recipient gets which file).
import { CliError } from "../errors";
import { openOutput } from "./output";

/** One line of the manifest. */
export interface ManifestLine {
  /** The row's `id` column, or null when the file has none. */
  id: string | null;
  /** The image's file name (in the folder, or the tar entry's name). */
  file: string;
  /** Seconds left at `--now` (the row's `now`), as frame 0 shows them. */
  remaining_seconds: number;
  /** "running", "ended", "paused" or "not_started", as the API's status says. */
  state: string;
  /** The image's size in bytes. */
  bytes: number;
  /** The row's line in the batch file. */
  line: number;
}

/** Appends manifest lines to a file, with backpressure like the images. */
export interface ManifestWriter {
  add(line: ManifestLine): Promise<void>;
  close(): Promise<void>;
}

/** The manifest at `path` (created or truncated). */
export function manifestWriter(path: string): ManifestWriter {
  const out = openOutput(path);
  const failure = (err: unknown) =>
    new CliError(`cannot write --manifest ${path}: ${(err as Error).message}`);
  return {
    async add(line) {
      try {
        await out.write(Buffer.from(`${JSON.stringify(line)}\n`, "utf8"));
      } catch (err) {
        throw failure(err);
      }
    },
    async close() {
      try {
        await out.close();
      } catch (err) {
        throw failure(err);
      }
    },
  };
}
