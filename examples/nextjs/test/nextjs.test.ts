// The route module is what Next.js runs; Next itself is too heavy to start here. A small
// node:http front end does what Next does with it: builds a Request, calls the export named
// after the method (405 when there is none) and writes the Response back.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { driveMountedApp, issueProductionKey } from "../../_harness/mounted";

type RouteModule = Record<string, unknown>;
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

let dir = "";
let route: RouteModule;
let server: Server;
let origin = "";
let secret = "";

function toRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const v of Array.isArray(value) ? value : [value ?? ""]) headers.append(name, v);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(`http://${req.headers.host}${req.url}`, {
    method: req.method!,
    headers,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: "half" } : {}),
  } as RequestInit);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "tminus-nextjs-"));
  const db = join(dir, "example.db");
  secret = issueProductionKey(db);
  process.env["TMINUS_DB"] = db;
  // A URL, not a literal path: the module is plain JavaScript, with no types to check.
  route = await import(new URL("../app/countdown/[...path]/route.js", import.meta.url).href);
  server = createServer(async (req, res) => {
    const method = route[req.method!];
    if (typeof method !== "function") {
      res.writeHead(405).end();
      return;
    }
    const response: Response = await method(toRequest(req));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.closeAllConnections();
  server?.close();
  await (globalThis as { tminus?: { close(): Promise<void> } }).tminus?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("examples/nextjs: the App Router catch-all route at app/countdown/[...path]", () => {
  it("exports a handler for every method and runs on Node, never prerendered", () => {
    for (const m of METHODS) expect(typeof route[m], m).toBe("function");
    expect(route["runtime"]).toBe("nodejs");
    expect(route["dynamic"]).toBe("force-dynamic");
  });

  it("serves the API, the public routes and the evergreen cookie under /countdown", async () => {
    await driveMountedApp(origin, secret);
  });

  it("HEAD and OPTIONS reach the handler, not Next's 405", async () => {
    const head = await fetch(`${origin}/countdown/embed.js`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toMatch(/^text\/javascript/);
    // The API grants no CORS: OPTIONS gets the handler's envelope, with the methods it accepts.
    const options = await fetch(`${origin}/countdown/api/v1/timers`, {
      method: "OPTIONS",
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(options.headers.get("x-request-id")).not.toBeNull();
    expect((await options.json()).error.code).toBe("not_found");
    expect(options.headers.get("allow")).toBe("POST, GET");
  });
});
