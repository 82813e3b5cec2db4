// Where the render threads' script is, written so that bundlers' file tracers (Turbopack's,
// even for a package Next.js keeps external) find exactly that file: a literal
// `new URL("./worker.js", import.meta.url)`. The CommonJS build swaps this module for
// default-worker-cjs.ts (see tsup.config.ts), where the same file is `join(__dirname, ...)`.
import { Worker, type WorkerOptions } from "node:worker_threads";

/** Starts a thread on dist/worker.js, the ES module that serves both builds. */
export function startDefaultWorker(options: WorkerOptions): Worker {
  // From the sources (tests): the built script, since Node cannot run TypeScript threads.
  if (import.meta.url.endsWith(".ts")) {
    return new Worker(new URL("../dist/worker.js", import.meta.url), options);
  }
  return new Worker(new URL("./worker.js", import.meta.url), options);
}
