// A render pool's thread (see pool.ts): one image renderer with its own caches,
// rendering what the pool sends, one job at a time, off the caller's event loop.
// Built as dist/worker.js (an ES module, for both builds); never imported by the package.
import { getPriority, setPriority } from "node:os";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { parentPort, receiveMessageOnPort, workerData } from "node:worker_threads";
import { RenderError } from "./errors";
import { createImageRenderer, type ImageRendererOptions } from "./image";
import type { ImageInput } from "./options";

/** What the pool passes to each thread. */
export interface RenderThreadOptions {
  cache: Pick<ImageRendererOptions, "atlasBytes" | "frameBytes">;
  /** Render the default look once at start: fonts read, satori and its wasm ready, atlas built. */
  warm: boolean;
  /** Added to this thread's nice value (see RenderPoolOptions.niceness). */
  niceness: number;
  /**
   * At most this many finished images go back in one message (default 1: each at once). One
   * is held only while the thread renders the next job of the same look and size, which waits
   * in its port: a message per image wakes the caller's thread for each (see `drain`).
   */
  batch?: number;
  /**
   * One slot per job the pool may have sent: a job's slot holds its id until a thread starts
   * it (then -id) or the pool takes it back (then 0). Optional for a caller's own script.
   */
  claims?: Int32Array;
  /**
   * Collect garbage in full after every this many new atlases (0 or absent: leave it to V8).
   * An atlas's buffers are external memory, which V8 collects only once tens of MB of it
   * have piled up; a thread under a memory budget gives them back at once instead.
   */
  collectAfterAtlases?: number;
}

/** A request from the pool. */
export type RenderThreadRequest =
  | { id: number; kind: "gif" | "png"; input: ImageInput; slot: number }
  | { id: number; kind: "stats" };

/** An answer to the pool; a thread's message is one of these or, for finished jobs, a list. */
export type RenderThreadReply =
  | { type: "started" }
  | { type: "ready" }
  | { type: "done"; id: number; bytes: Uint8Array; atlasBuilds: number }
  | { type: "stats"; id: number; stats: Record<string, number> }
  | {
      type: "failed";
      id: number;
      error: { code: RenderError["code"]; message: string; field: string | undefined };
    };

const port = parentPort;
if (!port) throw new Error("@tminus/render's worker runs in a worker thread of a render pool");
const options = workerData as RenderThreadOptions;
lowerPriority(options.niceness);
const images = createImageRenderer(options.cache);

// On Linux setpriority(0) changes the calling thread only, so this lowers the render
// thread and leaves the caller's event loop where it was. Where nice values belong to
// the whole process (or lowering is refused), the thread keeps its priority: changing
// the caller's is not ours to do.
function lowerPriority(increment: number): void {
  if (increment === 0 || process.platform !== "linux") return;
  try {
    setPriority(Math.min(19, getPriority() + increment));
  } catch {
    // A sandbox that forbids it: rendering still works, only less politely.
  }
}

let collectedAt = 0;
/** Atlases built when the thread last let its event loop run (see `drain`). */
let settledAt = 0;
let collections = 0;
let youngCollections = 0;
let collectedYoungAt = 0;
let collect: ((options?: { type: "minor" }) => void) | null = null;

/**
 * After an image that built atlases: a full collection once `collectAfterAtlases` new atlases
 * were built since the last, a young-generation one otherwise. resvg's objects die young, and a
 * young collection (about a millisecond) finds them as well as a full one does (tens of ms, on
 * helper threads that run at the caller's priority, not this thread's: bench/README.md, "The
 * memory budget").
 */
function collectIfDue(atlasBuilds: number): void {
  const every = options.collectAfterAtlases ?? 0;
  if (every <= 0 || atlasBuilds === collectedYoungAt) return;
  collectedYoungAt = atlasBuilds;
  if (!collect) {
    // V8's gc() is exposed only to contexts made after the flag is set; the thread's own was not.
    setFlagsFromString("--expose-gc");
    collect = runInNewContext("gc") as typeof collect;
  }
  if (atlasBuilds - collectedAt >= every) {
    collectedAt = atlasBuilds;
    collect!();
    collections++;
  } else {
    collect!({ type: "minor" });
    youngCollections++;
  }
}

function reply(message: RenderThreadReply): void {
  port!.postMessage(message);
}

// Finished jobs not yet sent, and the image buffers that travel with them.
const held: RenderThreadReply[] = [];
const heldBuffers: ArrayBuffer[] = [];
const batch = Math.max(1, options.batch ?? 1);

function hold(message: RenderThreadReply, transfer: ArrayBuffer[] = []): void {
  held.push(message);
  heldBuffers.push(...transfer);
}

function flush(): void {
  if (held.length === 0) return;
  const messages = held.splice(0);
  port!.postMessage(messages.length === 1 ? messages[0] : messages, heldBuffers.splice(0));
}

async function run(request: RenderThreadRequest): Promise<void> {
  try {
    if (request.kind === "stats") {
      const memory = process.memoryUsage();
      reply({
        type: "stats",
        id: request.id,
        stats: {
          ...images.cacheStats(),
          heapUsed: memory.heapUsed,
          external: memory.external,
          collections,
          youngCollections,
        },
      });
      return;
    }
    const bytes =
      request.kind === "gif" ? await images.gif(request.input) : await images.png(request.input);
    // The bytes move to the caller's thread instead of being copied; a view into a
    // larger buffer is copied first, so nothing else travels with it.
    const own =
      bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
        ? bytes
        : bytes.slice();
    const { atlasBuilds } = images.cacheStats();
    hold({ type: "done", id: request.id, bytes: own, atlasBuilds }, [own.buffer as ArrayBuffer]);
    collectIfDue(atlasBuilds);
  } catch (err) {
    const error =
      err instanceof RenderError
        ? { code: err.code, message: err.message, field: err.field }
        : {
            code: "render_failed" as const,
            message: `rendering failed: ${(err as Error)?.message ?? String(err)}`,
            field: undefined,
          };
    hold({ type: "failed", id: request.id, error });
  }
}

/**
 * Lets the thread's event loop turn once after a job that built atlases. resvg's trees and
 * pixmaps live in native memory that V8 does not see, and Node frees a native object only in a
 * finaliser it runs from the event loop (an immediate), after the GC found the object dead. A
 * thread draining a storm of new sizes never got there: the memory of every size it drew stayed
 * until the storm ended (about 2 MB a size, hundreds of MB in a storm; bench/README.md, "The
 * memory budget"). One turn per new atlas costs microseconds against the milliseconds an atlas
 * takes.
 */
async function settleNative(): Promise<void> {
  const { atlasBuilds } = images.cacheStats();
  if (atlasBuilds === settledAt) return;
  settledAt = atlasBuilds;
  await new Promise<void>((resolve) => setImmediate(resolve));
}

// One job at a time, in the order sent; the next already waits here while one renders, so the
// thread never idles for the pool's round trip.
const inbox: RenderThreadRequest[] = [];
let draining = false;

/** Starts the job unless the pool took it back (another thread, or the caller, renders it). */
function claim(request: RenderThreadRequest): boolean {
  if (request.kind === "stats" || !options.claims) return true;
  return (
    Atomics.compareExchange(options.claims, request.slot, request.id, -request.id) === request.id
  );
}

/** What decides a job's atlas: two jobs alike in this render alike fast once one is drawn. */
function lookOf(request: RenderThreadRequest): string | null {
  if (request.kind === "stats") return null;
  const { look, ended, width, height, scale, variant } = request.input;
  return JSON.stringify([request.kind, look, ended, width, height, scale, variant]);
}

/**
 * Renders what the port holds. Each message to the caller's thread wakes it, and on a busy core
 * (or when the kernel wakes it on this thread's core) it takes the core from this thread twice
 * per message: Node's MessagePort signals while it holds the port's lock, so the woken thread
 * at once waits for that lock (bench/README.md, "Where a pool loses time"). So finished images
 * go back together, up to `batch` of them, but only while the next job is of the same look
 * and size (its atlas built: a fraction of a millisecond) and another still waits behind it
 * (so the pool's answer, more jobs, comes before this thread runs out); otherwise at once.
 */
async function drain(): Promise<void> {
  draining = true;
  let last: string | null = null;
  for (;;) {
    // Messages that came while this thread rendered: without this they would wait for the end
    // of the loop, and the thread could not tell that more work waits.
    for (let m = receiveMessageOnPort(port!); m; m = receiveMessageOnPort(port!))
      inbox.push(m.message as RenderThreadRequest);
    const request = inbox.shift();
    if (!request) break;
    const look = lookOf(request);
    if (held.length >= batch || inbox.length === 0 || look === null || look !== last) flush();
    if (!claim(request)) continue;
    last = look;
    await run(request);
    await settleNative();
  }
  flush();
  draining = false;
}

port.on("message", (request: RenderThreadRequest) => {
  inbox.push(request);
  if (!draining) void drain();
});
reply({ type: "started" });

// What most requests are: the default look at the default size. A failure here is
// not fatal; the first real request will report it. (No top-level await: the CJS
// build has none.)
const warm = options.warm
  ? images.gif({ remainingSeconds: 3 * 86_400 + 3_661 }).then(
      () => undefined,
      () => undefined,
    )
  : Promise.resolve();
void warm.then(() => reply({ type: "ready" }));
