// A render thread that starts and then never runs a job: what a pool's thread is on a machine so
// busy that it gets no core (it runs at nice 10). It says it started and is ready, then ignores
// every message, so nothing it was sent is ever claimed.

/** The worker script of a starved render thread (an ES module, as a data: URL). */
export const STARVED_THREAD = new URL(
  `data:text/javascript,${encodeURIComponent(
    'import { parentPort } from "node:worker_threads"; parentPort.postMessage({ type: "started" }); parentPort.postMessage({ type: "ready" }); parentPort.on("message", () => {});',
  )}`,
);
