// The JSON log destination against real pipes: a child process's stdin is the reader, one that
// reads everything, one that does not read at first, and one that is gone.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { logDestination } from "../src/log-destination";

const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

/** A node process that waits `delayMs`, then copies its stdin to its stdout; resolves with it. */
function reader(delayMs: number) {
  const child = spawn(process.execPath, [
    "-e",
    `setTimeout(() => process.stdin.pipe(process.stdout), ${delayMs})`,
  ]);
  children.push(child);
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (text: string) => {
    out += text;
  });
  const closed = new Promise<string>((resolve) => child.once("close", () => resolve(out)));
  return { child, closed };
}

const line = (i: number) => `{"level":30,"n":${i},"msg":"${"x".repeat(Math.abs(i) % 97)}"}\n`;

describe("logDestination", () => {
  it("writes every line, whole and in order, in pieces of at least flushBytes", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 10_000 }), { maxLength: 400 }),
        fc.integer({ min: 1, max: 8192 }),
        async (ns, flushBytes) => {
          const { child, closed } = reader(0);
          const sizes: number[] = [];
          const out = {
            write: (text: string, done?: (error?: Error | null) => void) => {
              sizes.push(text.length);
              return child.stdin.write(text, done);
            },
            get writableLength() {
              return child.stdin.writableLength;
            },
            on: (event: "error", listener: (error: Error) => void) =>
              child.stdin.on(event, listener),
          };
          const destination = logDestination({ out, flushBytes, flushMs: 60_000 });
          for (const n of ns) destination.write(line(n));
          await destination.flush();
          child.stdin.end();
          expect(await closed).toBe(ns.map(line).join(""));
          // Every piece but the last (the flush) waited for flushBytes.
          for (const size of sizes.slice(0, -1)) expect(size).toBeGreaterThanOrEqual(flushBytes);
          expect(destination.dropped).toBe(0);
        },
      ),
      { numRuns: 15 },
    );
  });

  it("writes what waits after flushMs without a flush", async () => {
    const { child, closed } = reader(0);
    const destination = logDestination({ out: child.stdin, flushMs: 50 });
    destination.write(line(1));
    await new Promise((resolve) => setTimeout(resolve, 400));
    child.stdin.end();
    expect(await closed).toBe(line(1));
  });

  it("drops and counts lines while the reader is behind, never queueing past the bound, then says so", async () => {
    const { child, closed } = reader(3000);
    const maxQueuedBytes = 256 * 1024;
    const destination = logDestination({
      out: child.stdin,
      maxQueuedBytes,
      droppedLine: (lines) => `{"event":"log_lines_dropped","dropped":${lines}}\n`,
    });
    let written = 0;
    let peakQueued = 0;
    const started = performance.now();
    for (let i = 0; i < 40_000; i++) {
      destination.write(line(i));
      written += line(i).length;
      peakQueued = Math.max(peakQueued, child.stdin.writableLength);
    }
    // 2 MB of lines into a pipe nobody reads: the writer neither blocked nor kept them all.
    expect(performance.now() - started).toBeLessThan(2500);
    expect(written).toBeGreaterThan(4 * maxQueuedBytes);
    expect(peakQueued).toBeLessThanOrEqual(maxQueuedBytes + 8192);
    expect(destination.dropped).toBeGreaterThan(0);
    // Once the reader reads again, the next piece is preceded by the count.
    await new Promise((resolve) => setTimeout(resolve, 3500));
    // (The timer may have dropped the last piece too, before the reader woke.)
    const dropped = destination.dropped;
    destination.write(line(-1));
    await destination.flush();
    child.stdin.end();
    const lines = (await closed).trimEnd().split("\n");
    const parsed = lines.map((text) => JSON.parse(text));
    const notice = parsed.findIndex((entry) => entry.event === "log_lines_dropped");
    expect(parsed[notice].dropped).toBe(dropped);
    expect(parsed[notice + 1].n).toBe(-1);
    expect(parsed.length).toBe(40_000 - dropped + 2);
  });

  it("goes quiet when the reader is gone, without an error reaching the process", async () => {
    const child = spawn(process.execPath, ["-e", "process.exit(0)"]);
    children.push(child as ChildProcessWithoutNullStreams);
    await new Promise((resolve) => child.once("exit", resolve));
    const destination = logDestination({ out: child.stdin!, flushBytes: 10 });
    for (let i = 0; i < 1000; i++) destination.write(line(i));
    await destination.flush();
    await new Promise((resolve) => setTimeout(resolve, 50));
    destination.write(line(0));
    await expect(destination.flush()).resolves.toBeUndefined();
  });
});
