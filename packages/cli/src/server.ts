import { createServer, type Server } from "node:http";
import { dashboard } from "@tminus/dashboard";
import {
  createAdmin,
  createHandler,
  createMetrics,
  createNodeListener,
  handleClientError,
  type IssuedApiKey,
  type Logger,
  type TminusConfig,
} from "@tminus/http";
import type { Store } from "@tminus/store";
import { createWebhookWorker } from "@tminus/webhooks";
import { type MetricsServer, startMetricsServer } from "./metrics-server";
import { workerReports } from "./worker-reports";

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
  /** Serve `/metrics` on this port (0: any free one), on a listener of its own. */
  metricsPort?: number;
  /** The interface of the metrics listener (default: `host`). */
  metricsHost?: string;
  /** Request lines, worker and shutdown events. Default: none (faults to console.error). */
  logger?: Logger;
  /**
   * How long readiness answers 503 before the listener closes, on shutdown, in ms (default 0):
   * the time a load balancer needs to notice and stop sending here.
   */
  shutdownDelayMs?: number;
}

/** A running server. */
export interface RunningServer {
  url: string;
  /** Keys created on first start (secrets included), or null when the store had accounts. */
  bootstrapped: IssuedApiKey[] | null;
  server: Server;
  /** Where `/metrics` is served, or null without `metricsPort`. */
  metricsUrl: string | null;
  /** Stops accepting, finishes webhook attempts in flight, flushes the request log, closes the store. */
  close(): Promise<void>;
}

/**
 * Starts the API on node:http, with the webhook worker beside it unless `worker: false`. On the
 * first start against an empty store it creates the `default` account with one sandbox and one
 * production key.
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const { config, logger } = options;
  const runWorker = options.worker ?? true;
  const metrics = options.metricsPort === undefined ? null : createMetrics();
  // One timed store for the handler and the worker, so both show in the store's metrics.
  const store = metrics ? metrics.instrumentStore(options.store) : options.store;
  // Without the worker, the purge belongs to the `tminus worker` processes too.
  const handler = createHandler({
    store,
    config,
    housekeeping: runWorker,
    // The browser dashboard beside the API (config.dashboard turns it off or moves it).
    mounts: [dashboard()],
    ...(metrics ? { metrics } : {}),
    ...(logger ? { logger } : {}),
  });
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
  let metricsServer: MetricsServer | null = null;
  if (metrics) {
    try {
      metricsServer = await startMetricsServer(
        metrics,
        options.metricsPort!,
        options.metricsHost ?? options.host,
      );
    } catch (error) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await handler.close();
      throw error;
    }
  }
  // Only once the port is ours: a server that cannot listen must not create the first keys,
  // whose secrets it could then never show.
  let bootstrapped: IssuedApiKey[] | null;
  try {
    bootstrapped = await createAdmin({ store, config }).bootstrap();
  } catch (error) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await metricsServer?.close();
    await handler.close();
    throw error;
  }
  // The webhook worker runs beside the API: it fires time-based events and delivers the
  // outbox. Several `serve` processes on one database never send one attempt twice.
  const worker = runWorker
    ? createWebhookWorker({ store, config, ...workerReports(logger, metrics) })
    : null;
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
    metricsUrl: metricsServer?.url ?? null,
    async close() {
      // Readiness goes 503 first, while the listener still answers: a load balancer probing it
      // stops sending here before connections are refused.
      handler.drain();
      const delay = options.shutdownDelayMs ?? 0;
      logger?.info({ event: "shutdown", delay_ms: delay }, "shutting down");
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      await drain(server, () => {
        closing = true;
      });
      await worker?.stop();
      await handler.close();
      await metricsServer?.close();
      await store.close();
      logger?.info({ event: "stopped" }, "stopped");
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
