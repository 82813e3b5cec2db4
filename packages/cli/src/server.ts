import { createServer, type Server } from "node:http";
import {
  createAdmin,
  createHandler,
  createNodeListener,
  handleClientError,
  type IssuedApiKey,
  type TminusConfig,
} from "@tminus/http";
import type { Store } from "@tminus/store";
import { createWebhookWorker } from "@tminus/webhooks";

/** Options of `startServer`. */
export interface StartServerOptions {
  store: Store;
  config: TminusConfig;
  port: number;
  host: string;
  /**
   * Run the webhook worker and the retention purge in this process (default true). False for
   * API processes beside `tminus worker` processes (`serve --no-worker`): HTTP only.
   */
  worker?: boolean;
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
 * Starts the API on node:http, with the webhook worker beside it unless `worker: false`. On the
 * first start against an empty store it creates the `default` account with one sandbox and one
 * production key.
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const { store, config } = options;
  const runWorker = options.worker ?? true;
  // Without the worker, the purge belongs to the `tminus worker` processes too.
  const handler = createHandler({ store, config, housekeeping: runWorker });
  const listener = createNodeListener(handler);
  let closing = false;
  const server = createServer((req, res) => {
    // Shutting down: answer, and ask the client to close this connection, so keep-alive
    // connections under load end instead of carrying new requests forever.
    if (closing) res.setHeader("connection", "close");
    listener(req, res);
  });
  // Requests Node's parser refuses get the specification's envelope too, not a bare 400.
  server.on("clientError", handleClientError);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  // Only once the port is ours: a server that cannot listen must not create the first keys,
  // whose secrets it could then never show.
  let bootstrapped: IssuedApiKey[] | null;
  try {
    bootstrapped = await createAdmin({ store, config }).bootstrap();
  } catch (error) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await handler.close();
    throw error;
  }
  // The webhook worker runs beside the API: it fires time-based events and delivers the
  // outbox. Several `serve` processes on one database never send one attempt twice.
  const worker = runWorker ? createWebhookWorker({ store, config }) : null;
  worker?.start();
  // The render threads start now, beside the first requests, so the first email image finds
  // fonts read and an atlas built. Without @tminus/render this rejects; the image routes say
  // so themselves (render_unavailable), once, when one is asked for.
  handler.prepare().catch(() => undefined);
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  return {
    url: `http://${printableHost(options.host)}:${port}`,
    bootstrapped,
    server,
    async close() {
      await drain(server, () => {
        closing = true;
      });
      await worker?.stop();
      await handler.close();
      await store.close();
    },
  };
}

/** How long shutdown waits for requests in flight before it cuts their connections. */
const DRAIN_DEADLINE_MS = 4000;

/**
 * Graceful stop: no new connections; idle keep-alive connections are closed at once (and again
 * as others go idle), busy ones after their response (`Connection: close`), and whatever is
 * still open at the deadline is cut. Resolves when the server has no connection left.
 */
async function drain(server: Server, markClosing: () => void): Promise<void> {
  markClosing();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), 25);
  const deadline = setTimeout(() => server.closeAllConnections(), DRAIN_DEADLINE_MS);
  try {
    await closed;
  } finally {
    clearInterval(sweep);
    clearTimeout(deadline);
  }
}

/**
 * The host to print in the server's URL. A wildcard bind (`0.0.0.0`, `::`) is not an address
 * a client can connect to: `localhost` reaches it from this machine.
 */
function printableHost(host: string): string {
  if (host === "0.0.0.0" || host === "::" || host === "[::]" || host === "") return "localhost";
  return host.includes(":") ? `[${host}]` : host;
}
