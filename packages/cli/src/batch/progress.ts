// What a batch shows while it runs: on a terminal, one line redrawn in place (at most ten
// times a second, so drawing never costs more than rendering); elsewhere (a CI log, a pipe)
// nothing until the one-line summary, so logs stay readable.

/** Counts of a running batch. */
export interface BatchCounts {
  written: number;
  failed: number;
  /** Rows expected in all (an estimate from the file's line count), or null if unknown. */
  expected: number | null;
  elapsedMs: number;
}

/** The progress line: a bar when the total is known, counts and the rate. */
export function progressLine(counts: BatchCounts, columns: number): string {
  const done = counts.written + counts.failed;
  const rate = counts.elapsedMs > 0 ? perSecond((counts.written * 1000) / counts.elapsedMs) : "0";
  const failed = counts.failed > 0 ? `, ${counts.failed} failed` : "";
  const tail = `${done}${counts.expected ? `/${Math.max(done, counts.expected)}` : ""} images${failed}, ${rate}/s`;
  if (!counts.expected) return tail;
  const width = Math.max(10, Math.min(40, columns - tail.length - 4));
  const share = Math.min(1, done / Math.max(done, counts.expected));
  const full = Math.round(share * width);
  return `[${"#".repeat(full)}${"-".repeat(width - full)}] ${tail}`;
}

/** The line printed when a batch ends, on a terminal or not. */
export function summaryLine(counts: BatchCounts, where: string): string {
  const seconds = counts.elapsedMs / 1000;
  const rate = seconds > 0 ? perSecond(counts.written / seconds) : "0";
  const failed = counts.failed > 0 ? `; ${counts.failed} failed` : "";
  return `wrote ${counts.written} images to ${where} in ${seconds.toFixed(2)} s (${rate} images/s)${failed}`;
}

/** A terminal stream, as much of one as the progress line needs. */
export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

/** Draws the progress line on a terminal, and writes messages above it. */
export interface Progress {
  update(counts: BatchCounts): void;
  /** A message of its own line (a failed row), the bar redrawn below it. */
  message(text: string): void;
  /** The final state of the bar, and the cursor on a fresh line. */
  finish(counts: BatchCounts): void;
}

/** A progress line on `stream` when it is a terminal; otherwise messages only. */
export function createProgress(stream: ProgressStream, intervalMs = 100): Progress {
  const tty = stream.isTTY === true;
  let drawnAt = -Infinity;
  let last: BatchCounts | null = null;
  const draw = (counts: BatchCounts) => {
    stream.write(`\r\u001b[K${progressLine(counts, stream.columns ?? 80)}`);
    drawnAt = counts.elapsedMs;
  };
  return {
    update(counts) {
      last = counts;
      if (tty && counts.elapsedMs - drawnAt >= intervalMs) draw(counts);
    },
    message(text) {
      if (!tty) {
        stream.write(`${text}\n`);
        return;
      }
      stream.write(`\r\u001b[K${text}\n`);
      if (last) draw(last);
    },
    finish(counts) {
      if (!tty) return;
      draw(counts);
      stream.write("\n");
    },
  };
}

/** 523, 12, 0.4: whole numbers once there is more than a few a second. */
function perSecond(rate: number): string {
  return rate >= 10 ? String(Math.round(rate)) : rate.toFixed(1);
}
