// An uploaded image is decoded whole to be taken, and decoding 16 megapixels costs a second or
// more of CPU: work the API's event loop must not do between status requests. It runs on a
// thread of its own, one per upload (uploads are rare), which loads the renderer there.
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type { FileProblemReason } from "@tminus/render";

/** What decoding found, or why the file is refused (render's FileProblem, as plain data). */
export type ImageCheck =
  | { ok: true; format: "png" | "jpeg"; width: number; height: number }
  | { ok: false; reason: FileProblemReason; message: string; missing: string[] };

// The thread's code: render's readImage, the answer as plain data (CommonJS: an eval'd worker).
const THREAD = `
const { parentPort, workerData } = require("node:worker_threads");
const render = require(workerData.entry);
try {
  const image = render.readImage(workerData.bytes);
  parentPort.postMessage({ ok: true, format: image.format, width: image.width, height: image.height });
} catch (error) {
  if (!(error instanceof render.FileProblem)) throw error;
  parentPort.postMessage({ ok: false, reason: error.reason, message: error.message, missing: [...error.missing] });
}`;

/** How long a decode may take before the image is refused as unreadable. */
export const IMAGE_CHECK_TIMEOUT_MS = 60_000;

/**
 * Decodes `bytes` with render's `readImage` on a new thread; resolves with the image's
 * format and size, or the FileProblem's reason. A thread that fails or takes longer than
 * {@link IMAGE_CHECK_TIMEOUT_MS} rejects.
 */
export function checkImageOffThread(bytes: Uint8Array): Promise<ImageCheck> {
  const entry = createRequire(import.meta.url).resolve("@tminus/render");
  return new Promise((resolve, reject) => {
    const worker = new Worker(THREAD, {
      eval: true,
      workerData: { entry, bytes },
      // A decoded image is at most 64 MiB of pixels (outside the heap); the heap stays small.
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new Error(`decoding the image took longer than ${IMAGE_CHECK_TIMEOUT_MS} ms`));
    }, IMAGE_CHECK_TIMEOUT_MS);
    worker.once("message", (answer: ImageCheck) => {
      clearTimeout(timer);
      resolve(answer);
      void worker.terminate();
    });
    worker.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    worker.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the image thread ended (${code}) without an answer`));
    });
  });
}
