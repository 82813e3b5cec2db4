import { createServer, type IncomingHttpHeaders, type Server } from "node:http";

/** One request a receiver got. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** What the receiver answers; `hang` never answers (for timeouts). */
export type Answer = { status: number; headers?: Record<string, string>; body?: string } | "hang";

/** A webhook receiver on loopback, as a user's backend would run one. */
export interface Receiver {
  url: string;
  received: Received[];
  /** Decides each answer; by default 204. `nth` counts requests for the same webhook-id. */
  respond: (request: Received, nth: number) => Answer;
  /** Resolves once `predicate` holds for the requests so far (polls every 20 ms). */
  waitFor(predicate: (received: Received[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 at a free port. */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const seen = new Map<string, number>();
  const hanging = new Set<() => void>();
  const receiver: Receiver = {
    url: "",
    received,
    respond: () => ({ status: 204 }),
    async waitFor(predicate, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(received)) {
        if (Date.now() > deadline) {
          throw new Error(
            `receiver: condition not met in ${timeoutMs} ms (${received.length} requests)`,
          );
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async close() {
      for (const release of hanging) release();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const request: Received = {
        path: req.url ?? "/",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
      };
      received.push(request);
      const id = String(req.headers["webhook-id"] ?? "");
      const nth = (seen.get(id) ?? 0) + 1;
      seen.set(id, nth);
      const answer = receiver.respond(request, nth);
      if (answer === "hang") {
        hanging.add(() => res.destroy());
        return;
      }
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body ?? "");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const address = server.address();
  receiver.url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  return receiver;
}
