// Requests that Node's HTTP parser refuses, sent over raw TCP: each must get the envelope, a
// request id and a closed connection, and a body that is declared but never sent must not hold
// the socket.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./_harness";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

/** Sends raw bytes; resolves with everything the server sent and how long it kept the socket. */
function raw(request: string): Promise<{ text: string; closedAfterMs: number }> {
  const { port } = new URL(s.url);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(Number(port), "127.0.0.1");
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk) => {
      text += chunk;
    });
    socket.on("error", reject);
    socket.on("close", () => resolve({ text, closedAfterMs: performance.now() - started }));
    socket.write(request);
    // Never end our side: the server has to close.
    setTimeout(() => {
      socket.destroy();
      reject(new Error(`socket still open after 5 s; received: ${text.slice(0, 200)}`));
    }, 5000).unref();
  });
}

function parse(text: string) {
  const [head, body = ""] = text.split("\r\n\r\n");
  const [statusLine, ...lines] = head!.split("\r\n");
  const headers = Object.fromEntries(
    lines.map((l) => [
      l.slice(0, l.indexOf(":")).toLowerCase(),
      l.slice(l.indexOf(":") + 1).trim(),
    ]),
  );
  return {
    status: Number(statusLine!.split(" ")[1]),
    headers,
    json: JSON.parse(headers["transfer-encoding"] === "chunked" ? dechunk(body) : body),
  };
}

function dechunk(body: string): string {
  let out = "";
  let rest = body;
  for (;;) {
    const eol = rest.indexOf("\r\n");
    const size = Number.parseInt(rest.slice(0, eol), 16);
    if (!size) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
}

describe("requests Node's parser refuses (spec: every error has the envelope)", () => {
  const cases: [string, string, string][] = [
    ["an unknown method", "FOO{} /api/v1/usage HTTP/1.1\r\nHost: x\r\n\r\n", "method"],
    [
      "Transfer-Encoding with Content-Length",
      "POST /api/v1/timers HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      "Transfer-Encoding",
    ],
    [
      "a malformed Content-Length",
      "POST /api/v1/timers HTTP/1.1\r\nHost: x\r\nContent-Length: 5x\r\n\r\nhello",
      "Content-Length",
    ],
    [
      "headers over 16 KiB",
      `GET /api/v1/usage HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
      "headers",
    ],
  ];
  for (const [name, request, field] of cases) {
    it(`${name}: 400 validation_error naming ${field}, request id, connection closed`, async () => {
      const { text } = await raw(request);
      const res = parse(text);
      expect(res.status).toBe(400);
      expect(res.headers["content-type"]).toContain("application/json");
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers.connection).toBe("close");
      expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.json.request_id).toBe(res.headers["x-request-id"]);
      expect(res.json.error).toMatchObject({ code: "validation_error", details: { field } });
    });
  }

  it("a body declared as 10 GB but never sent: 400 at once and the socket is closed", async () => {
    const key = await s.key("production");
    const { text, closedAfterMs } = await raw(
      `POST /api/v1/timers HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key.secret}\r\nIdempotency-Key: big\r\nContent-Type: application/json\r\nContent-Length: 10000000000\r\n\r\n{"a":1234}`,
    );
    const res = parse(text);
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: "validation_error", details: { field: "body" } });
    expect(res.headers.connection).toBe("close");
    expect(closedAfterMs).toBeLessThan(4000);
  });

  it("a request refused before its body was read still gets its envelope", async () => {
    // Refused before the body matters (no key): answered, and the connection never drains.
    const { text } = await raw(
      "POST /api/v1/timers HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
    );
    const res = parse(text);
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe("unauthorized");
  });
});

describe("a client that goes away mid-body", () => {
  it("is not reported as an internal error", async () => {
    const { createServer } = await import("node:http");
    const { sqliteStore } = await import("@tminus/store/sqlite");
    const { createAdmin, createHandler, createNodeListener } = await import("../src/index");
    const { mkdtempSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const dir = mkdtempSync(join(tmpdir(), "tminus-abort-"));
    const store = sqliteStore({ path: join(dir, "db.sqlite") });
    const faults: unknown[] = [];
    const handler = createHandler({ store, onError: (e) => faults.push(e) });
    const key = await createAdmin({ store }).issueKey({
      account: "abort",
      environment: "production",
    });
    const server = createServer(createNodeListener(handler));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as { port: number }).port;
    const socket = connect(port, "127.0.0.1");
    await new Promise((r) => socket.once("connect", r));
    socket.write(
      `POST /api/v1/timers HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key.secret}\r\nIdempotency-Key: gone\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":`,
    );
    await new Promise((r) => setTimeout(r, 100));
    socket.destroy();
    await new Promise((r) => setTimeout(r, 200));
    server.close();
    await handler.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
    expect(faults).toEqual([]);
  });
});
