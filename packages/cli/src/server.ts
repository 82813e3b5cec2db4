import { createServer, type Server } from "node:http";
import {
  createAdmin,
  createHandler,
  createNodeListener,
  createWebhookWorker,
  type IssuedApiKey,
  type TminusConfig,
} from "@tminus/http";
import type { Store } from "@tminus/store";

/** Options of `startServer`. */
export interface StartServerOptions {
  store: Store;
  config: TminusConfig;
  port: number;
  host: string;
}

/** A running server. */
export interface RunningServer {
  url: string;
  /** Keys created on first start (secrets included), or null when the store had accounts. */
  bootstrapped: IssuedApiKey[] | null;
  server: Server;
  /** Stops accepting, finishes webhook attempts in flight, flushes the request log, closes the store. */
  close(): Promise<void>;
}

/**
 * Starts the API on node:http. On the first start against an empty store it creates the
 * `default` account with one sandbox and one production key.
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const { store, config } = options;
  const bootstrapped = await createAdmin({ store, config }).bootstrap();
  const handler = createHandler({ store, config });
  const server = createServer(createNodeListener(handler));
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  // The webhook worker runs beside the API: it fires time-based events and delivers the
  // outbox. Several `serve` processes on one database never send one attempt twice.
  const worker = createWebhookWorker({ store, config });
  worker.start();
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`,
    bootstrapped,
    server,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections?.();
      await worker.stop();
      await handler.close();
      await store.close();
    },
  };
}
