/** The part of a writable stream the destination needs (`process.stdout` by default). */
export interface LogOutput {
  write(text: string, done?: (error?: Error | null) => void): boolean;
  readonly writableLength: number;
  on(event: "error", listener: (error: Error) => void): unknown;
}

/** Where JSON log lines go: pino writes its lines here, the request lines too. */
export interface LogDestination {
  /** Keeps a line (or several, each ending in `\n`); written once `flushBytes` wait. */
  write(text: string): void;
  /** Writes what is kept now; resolves once the output took it (at most `flushTimeoutMs`). */
  flush(): Promise<void>;
  /** Lines dropped because the output's reader fell `maxQueuedBytes` behind. */
  readonly dropped: number;
}

/** How lines are gathered and how far a slow reader may fall behind. */
export interface LogDestinationOptions {
  /** Default `process.stdout`. */
  out?: LogOutput;
  /** Lines are handed to the output in pieces of at least this many characters (4,096). */
  flushBytes?: number;
  /** ...or after this long, so a quiet process's lines are never held longer (200 ms). */
  flushMs?: number;
  /** Past this many bytes waiting in the output, lines are dropped and counted (8 MiB). */
  maxQueuedBytes?: number;
  /** `flush()` waits this long at most for a reader that stopped reading (1,000 ms). */
  flushTimeoutMs?: number;
  /** The line written once the reader catches up after lines were dropped. */
  droppedLine?: (lines: number) => string;
}

/** Counts the lines of a piece of log text (every line ends in `\n`). */
function countLines(text: string): number {
  let lines = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) lines++;
  return lines;
}

/**
 * Log lines to stdout in pieces of 4 KiB. On Linux `process.stdout` writes a pipe on the event
 * loop's thread without blocking (what the kernel does not take at once waits in the stream),
 * which cost a status request about a third of what pino's destination did: that one encodes
 * each piece twice and sends every write through libuv's thread pool (bench/README.md). A
 * reader that stops reading never stalls requests or grows memory without bound: past
 * `maxQueuedBytes` waiting, lines are dropped, counted, and reported in one line once it reads
 * again. A closed stdout (EPIPE) drops everything quietly; a file is written synchronously.
 */
export function logDestination(options: LogDestinationOptions = {}): LogDestination {
  const out = options.out ?? process.stdout;
  const flushBytes = options.flushBytes ?? 4096;
  const maxQueued = options.maxQueuedBytes ?? 8 * 1024 * 1024;
  const flushTimeoutMs = options.flushTimeoutMs ?? 1000;
  let pending = "";
  let dropped = 0;
  let droppedSinceWrite = 0;
  let closed = false;
  out.on("error", () => {
    // The reader went away: nothing left to write to, and no reason to end the process.
    closed = true;
  });
  const send = (): void => {
    if (pending === "") return;
    const text = pending;
    pending = "";
    if (closed) return;
    if (out.writableLength > maxQueued) {
      const lines = countLines(text);
      dropped += lines;
      droppedSinceWrite += lines;
      return;
    }
    if (droppedSinceWrite > 0 && options.droppedLine) {
      out.write(options.droppedLine(droppedSinceWrite));
      droppedSinceWrite = 0;
    }
    out.write(text);
  };
  setInterval(send, options.flushMs ?? 200).unref();
  return {
    write(text) {
      pending += text;
      if (pending.length >= flushBytes) send();
    },
    flush() {
      send();
      if (closed || out.writableLength === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, flushTimeoutMs);
        out.write("", () => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
    get dropped() {
      return dropped;
    },
  };
}
