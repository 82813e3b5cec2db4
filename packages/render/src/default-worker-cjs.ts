// default-worker.ts for the CommonJS build (tsup.config.ts swaps it in): tsup's shim of
// `import.meta.url` is a value tracers cannot evaluate, `__dirname` is one they know.
import { join } from "node:path";
import { Worker, type WorkerOptions } from "node:worker_threads";

/** Starts a thread on dist/worker.js (an ES module: a thread is a module graph of its own). */
export function startDefaultWorker(options: WorkerOptions): Worker {
  return new Worker(join(__dirname, "worker.js"), options);
}
