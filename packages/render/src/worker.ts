// A render pool's thread (see pool.ts): one image renderer with its own caches,
// rendering what the pool sends, one job at a time, off the caller's event loop.
// Built as dist/worker.js (an ES module, for both builds); never imported by the package.
import { getPriority, setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
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
   * One slot per job the pool may have sent: a job's slot holds its id until a thread starts
   * it (then -id) or the pool takes it back (then 0). Optional for a caller's own script.
   */
  claims?: Int32Array;
}

/** A request from the pool. */
export type RenderThreadRequest =
  | { id: number; kind: "gif" | "png"; input: ImageInput; slot: number }
  | { id: number; kind: "stats" };

/** An answer to the pool. */
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

function reply(message: RenderThreadReply, transfer: ArrayBuffer[] = []): void {
  port!.postMessage(message, transfer);
}

async function run(request: RenderThreadRequest): Promise<void> {
  try {
    if (request.kind === "stats") {
      const memory = process.memoryUsage();
      reply({
        type: "stats",
        id: request.id,
        stats: { ...images.cacheStats(), heapUsed: memory.heapUsed, external: memory.external },
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
    reply(
      { type: "done", id: request.id, bytes: own, atlasBuilds: images.cacheStats().atlasBuilds },
      [own.buffer as ArrayBuffer],
    );
  } catch (err) {
    const error =
      err instanceof RenderError
        ? { code: err.code, message: err.message, field: err.field }
        : {
            code: "render_failed" as const,
            message: `rendering failed: ${(err as Error)?.message ?? String(err)}`,
            field: undefined,
          };
    reply({ type: "failed", id: request.id, error });
  }
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

async function drain(): Promise<void> {
  draining = true;
  for (let request = inbox.shift(); request; request = inbox.shift())
    if (claim(request)) await run(request);
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
