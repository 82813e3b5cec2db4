// What `tminus copy` shows while it runs: on a terminal one bar redrawn in place (at most ten
// times a second); elsewhere (a log, a pipe) a plain line when a table is done and at most one
// every five seconds in between, so an unattended copy of a big database still shows it moves.
import type { CopyProgressEvent } from "@tminus/store/copy";
import type { ProgressStream } from "./batch/progress";

/** Receives the copy's events; `finish` leaves the cursor on a fresh line. */
export interface CopyProgressView {
  update(event: CopyProgressEvent): void;
  finish(): void;
}

/** A bar on a terminal, plain lines otherwise; `now` is injectable for tests. */
export function createCopyProgress(
  stream: ProgressStream,
  now: () => number = Date.now,
): CopyProgressView {
  const tty = stream.isTTY === true;
  const started = now();
  let drawnAt = tty ? -Infinity : started;
  let drawn = false;
  let lastDone = "";
  return {
    update(event) {
      const t = now();
      if (tty) {
        if (t - drawnAt < 100 && event.done < event.total) return;
        stream.write(`\r\u001b[K${copyBar(event, stream.columns ?? 80, t - started)}`);
        drawnAt = t;
        drawn = true;
        return;
      }
      // Empty tables say nothing: the verification lists every table anyway.
      const tableDone =
        event.phase === "copy" && event.tableTotal > 0 && event.tableRows === event.tableTotal;
      if ((tableDone && event.table !== lastDone) || t - drawnAt >= 5_000) {
        stream.write(`${plainLine(event)}\n`);
        drawnAt = t;
        if (tableDone) lastDone = event.table;
      }
    },
    finish() {
      if (tty && drawn) stream.write("\n");
    },
  };
}

/** `[#####-----] copy timers 1200/3000, 4500/9000 rows, 2100/s`. */
export function copyBar(event: CopyProgressEvent, columns: number, elapsedMs: number): string {
  const rate = elapsedMs > 0 ? Math.round((event.done * 1000) / elapsedMs) : 0;
  const tail = `${event.phase} ${event.table} ${event.tableRows}${event.phase === "copy" ? `/${event.tableTotal}` : ""}, ${event.done}/${event.total} rows, ${rate}/s`;
  const width = Math.max(10, Math.min(40, columns - tail.length - 4));
  const share = event.total > 0 ? Math.min(1, event.done / event.total) : 1;
  const full = Math.round(share * width);
  return `[${"#".repeat(full)}${"-".repeat(width - full)}] ${tail}`;
}

function plainLine(event: CopyProgressEvent): string {
  const of = event.phase === "copy" ? `/${event.tableTotal}` : "";
  return `${event.phase}: ${event.table} ${event.tableRows}${of} rows (${event.done}/${event.total} in all)`;
}
