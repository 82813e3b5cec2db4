// `tminus render --batch recipients.csv --out-dir DIR` (or `--out-tar FILE`): one image per
// row, in one process, through renderMany (a bounded number of rows in flight, the file read
// as it is rendered, the output written with backpressure). A bad row is one line on stderr
// and the rest go on; the exit status says whether every row became an image.
import { closeSync, openSync, readSync, statSync } from "node:fs";
import type { LookInput, TimerDefinition } from "@tminus/core";
import { IMAGE_LIMITS, type RenderManyOptions, renderMany } from "@tminus/render";
import {
  checkDestination,
  type DestinationFlags,
  openDestination,
  removeFiles,
} from "../batch/destination";
import { type BatchJob, fileNames, RowError, rowToJob } from "../batch/jobs";
import { type BatchCounts, createProgress, summaryLine } from "../batch/progress";
import { batchFileKind, readRows } from "../batch/rows";
import { CliError } from "../errors";
import { userPath } from "../paths";
import {
  checkedLook,
  definitionOf,
  formatFlag,
  instant,
  intOption,
  type RenderFlags,
} from "./render-input";

/** The flags a batch reads. */
export interface BatchFlags extends RenderFlags, DestinationFlags {
  batch?: string;
  name?: string;
  now?: string;
  frames?: string;
  scale?: string;
  variant?: string;
  width?: string;
  height?: string;
  threads?: string;
}

/** Batches of more rows than this (by the file's line count) use render threads too. */
const POOL_FROM_ROWS = 2000;

/** Renders one image per row of `--batch` into `--out-dir` or `--out-tar`; exit status 1 if any row failed. */
export async function renderBatch(flags: BatchFlags): Promise<void> {
  const batch = flags.batch!;
  const destination = checkDestination(flags, process.stdout.isTTY === true);
  const kind = batchFileKind(batch);
  const source = userPath(batch);
  const names = (() => {
    try {
      return fileNames(flags.name ?? "{id}.{format}");
    } catch (err) {
      throw err instanceof RowError ? new CliError(err.message) : err;
    }
  })();
  const format = formatFlag(flags.format);
  // Before anything is made: a batch that cannot start leaves nothing behind.
  let found: ReturnType<typeof statSync>;
  try {
    found = statSync(source);
  } catch (err) {
    throw new CliError(`cannot read --batch ${batch}: ${(err as Error).message}`);
  }
  if (found.isDirectory()) throw new CliError(`--batch ${batch} is a directory`);
  const expected = estimateRows(source, kind);
  // Flags are checked once here: a bad one would otherwise fail every row the same way.
  const defaults = batchDefaults(flags, expected);
  const out = openDestination(destination, Math.floor(Number(defaults.now) / 1000));

  const err = process.stderr;
  const progress = createProgress(err);
  const started = performance.now();
  const counts: BatchCounts = {
    written: 0,
    failed: 0,
    expected,
    elapsedMs: 0,
  };
  const fail = (line: number, message: string) => {
    counts.failed++;
    progress.message(`${batch}:${line}: ${message}`);
  };
  // Rows refused before rendering wait here, so every message comes out in line order.
  const refused: Array<{ line: number; message: string }> = [];
  const flushBefore = (line: number) => {
    while (refused.length > 0 && refused[0]!.line < line) {
      const { line: at, message } = refused.shift()!;
      fail(at, message);
    }
  };

  async function* jobs(): AsyncGenerator<BatchJob> {
    for await (const row of readRows(source, kind, batch)) {
      if ("error" in row) {
        refused.push({ line: row.line, message: row.error });
        continue;
      }
      try {
        yield rowToJob(row, names, { format });
      } catch (e) {
        if (!(e instanceof RowError)) throw e;
        refused.push({ line: row.line, message: e.message });
      }
    }
  }

  let finished = false;
  try {
    for await (const result of renderMany(jobs(), defaults)) {
      flushBefore(result.job.line);
      if (result.ok) {
        const { job, bytes } = result;
        // Awaited: a slow disk or reader holds back the next results, and with them the rows.
        await out.images.write(job.file, bytes);
        await out.manifest?.add({
          id: job.id,
          file: job.file,
          remaining_seconds: result.remainingSeconds,
          state: result.state,
          bytes: bytes.length,
          line: job.line,
        });
        counts.written++;
      } else fail(result.job.line, result.error.message);
      counts.elapsedMs = performance.now() - started;
      progress.update(counts);
    }
    flushBefore(Number.POSITIVE_INFINITY);
    await out.images.close();
    await out.manifest?.close();
    finished = true;
  } finally {
    if (!finished) {
      // Already failing: what is in flight is let go; the first error is the one reported.
      await out.images.close().catch(() => undefined);
      await out.manifest?.close().catch(() => undefined);
      // A batch that stopped before its first image (a broken header) leaves no files.
      if (counts.written === 0) removeFiles(destination);
    }
    // Also when the file turns out broken half-way: the bar ends its line before the error.
    counts.elapsedMs = performance.now() - started;
    progress.finish(counts);
  }
  // With the tar on standard output, the summary goes where the progress does.
  const summary = destination.stdoutTaken ? process.stderr : process.stdout;
  summary.write(`${summaryLine(counts, out.images.where)}\n`);
  if (counts.failed > 0) process.exitCode = 1;
}

/** What the flags give every row, checked, as renderMany's defaults. */
function batchDefaults(flags: BatchFlags, expected: number | null): RenderManyOptions {
  const timer: TimerDefinition | undefined = definitionOf(flags, false);
  const look: LookInput | undefined = timer ? undefined : checkedLook(flags);
  const L = IMAGE_LIMITS;
  const frames = ranged(flags.frames, "frames", L.minFrames, L.maxFrames);
  const width = ranged(flags.width, "width", L.minWidth, L.maxWidth);
  const height = ranged(flags.height, "height", L.minHeight, L.maxHeight);
  const scale = ranged(flags.scale, "scale", 1, 2) as 1 | 2 | undefined;
  if (flags.variant !== undefined && flags.variant !== "light" && flags.variant !== "dark")
    throw new CliError(`--variant: variant must be light or dark, got "${flags.variant}"`);
  return {
    // A CLI's thread has nothing else to do: it renders too, beside a pool's threads.
    callerThread: true,
    timer,
    look,
    deadline: flags.deadline === undefined ? undefined : instant(flags.deadline, "--deadline"),
    now: flags.now === undefined ? Date.now() : instant(flags.now, "--now"),
    frames,
    width,
    height,
    scale,
    variant: flags.variant as "light" | "dark" | undefined,
    // A render thread costs about as much to start as this thread takes to render a thousand
    // images; below that it would only take CPU from this thread (bench/render-batch.mjs).
    threads: threadsFor(flags.threads, expected),
  };
}

/** `--threads`, else none for a file of up to POOL_FROM_ROWS rows, else renderMany's default. */
function threadsFor(flag: string | undefined, expected: number | null): number | undefined {
  if (flag !== undefined) return ranged(flag, "threads", 0, 64);
  return expected !== null && expected <= POOL_FROM_ROWS ? 0 : undefined;
}

function ranged(value: string | undefined, name: string, min: number, max: number) {
  const n = intOption(value, `--${name}`);
  if (n !== undefined && (n < min || n > max))
    throw new CliError(`--${name}: ${name} must be an integer from ${min} to ${max}`);
  return n;
}

/**
 * Rows in the file, for the progress bar: its line breaks (a CSV header and blank lines
 * make it a little high; the bar never shows more than is done). Null if unreadable.
 */
function estimateRows(path: string, kind: "csv" | "jsonl"): number | null {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return null; // reading the rows reports it
  }
  try {
    const buffer = Buffer.alloc(1 << 16);
    let lines = 0;
    let last = 10;
    for (let n = readSync(fd, buffer); n > 0; n = readSync(fd, buffer)) {
      for (let at = buffer.indexOf(10); at >= 0 && at < n; at = buffer.indexOf(10, at + 1)) lines++;
      last = buffer[n - 1]!;
    }
    if (last !== 10) lines++;
    return Math.max(0, kind === "csv" ? lines - 1 : lines);
  } finally {
    closeSync(fd);
  }
}
