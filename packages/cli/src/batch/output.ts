// Where a batch writes: a byte stream (a file, or standard output) written through a buffer of
// bounded size. Small writes (tar headers, manifest lines) are gathered into chunks; a chunk
// waits for the stream to drain before the next is taken, so a slow reader (an uploader at the
// other end of a pipe) slows the batch down instead of filling memory.
import { createWriteStream } from "node:fs";
import type { Writable } from "node:stream";

/** An output stream taking bytes, with backpressure. */
export interface ByteOutput {
  /** Resolves when `bytes` are taken (buffered under the bound, or handed to the stream). */
  write(bytes: Uint8Array): Promise<void>;
  /** Hands over what is buffered and ends the stream (a file is closed; stdout stays open). */
  close(): Promise<void>;
}

/** Bytes gathered before a write to the stream. */
const CHUNK = 256 * 1024;

/** A file (created or truncated) or, for `-`, standard output. */
export function openOutput(path: string): ByteOutput {
  if (path === "-") return streamOutput(process.stdout, false);
  return streamOutput(createWriteStream(path), true);
}

/** Writes to `stream` in chunks of up to 256 KiB; `end`: end the stream on close. */
export function streamOutput(stream: Writable, end: boolean): ByteOutput {
  let buffer = Buffer.allocUnsafe(CHUNK);
  let used = 0;
  let failed: Error | null = null;
  stream.on("error", (err) => {
    failed ??= err;
  });
  const flush = async () => {
    if (used === 0) return;
    const chunk = buffer.subarray(0, used);
    // The stream keeps the chunk until it is written: the next one gets a buffer of its own.
    buffer = Buffer.allocUnsafe(CHUNK);
    used = 0;
    await push(chunk);
  };
  const push = async (chunk: Uint8Array) => {
    if (failed) throw failed;
    if (!stream.write(chunk)) await drained(stream, () => failed);
    if (failed) throw failed;
  };
  return {
    async write(bytes) {
      if (failed) throw failed;
      if (used + bytes.length > CHUNK) await flush();
      if (bytes.length >= CHUNK) return push(bytes);
      buffer.set(bytes, used);
      used += bytes.length;
    },
    async close() {
      await flush();
      if (!end) return;
      await new Promise<void>((resolve, reject) => {
        stream.end((err?: Error | null) => (err ? reject(err) : resolve()));
      });
      if (failed) throw failed;
    },
  };
}

/** Resolves on 'drain', or when the stream fails or closes (the caller then checks the error). */
function drained(stream: Writable, error: () => Error | null): Promise<void> {
  if (error()) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off("drain", done);
      stream.off("error", done);
      stream.off("close", done);
      resolve();
    };
    stream.on("drain", done);
    stream.on("error", done);
    stream.on("close", done);
  });
}
