// Type-checked in the install folder with `moduleResolution: nodenext`: every entry point's
// declarations resolve from the installed packages alone.
import { computeStatus } from "@tminus/core";
import { dashboard } from "@tminus/dashboard";
import { createHandler, type TminusHandler } from "@tminus/http";
import { type TminusFastifyOptions, tminusFastify } from "@tminus/http/fastify";
import { renderGif } from "@tminus/render";
import type { Store } from "@tminus/store";
import { runStoreSuite } from "@tminus/store/conformance";
import { sqliteStore } from "@tminus/store/sqlite";
import { createWebhookWorker } from "@tminus/webhooks";
import { startServer } from "tminus";

const store: Store = sqliteStore({ path: "types.db" });
const handler: TminusHandler = createHandler({ store, mounts: [dashboard()] });
const options: TminusFastifyOptions = { handler };
const gif: Promise<Uint8Array> = renderGif({ remainingSeconds: 60 });

export {
  computeStatus,
  createWebhookWorker,
  gif,
  options,
  runStoreSuite,
  startServer,
  tminusFastify,
};
