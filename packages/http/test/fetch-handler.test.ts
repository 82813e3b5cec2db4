import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sqliteStore } from "@tminus/store/sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAdmin, createHandler, type IssuedApiKey, type TminusHandler } from "../src/index";

// The Fetch-API face of the handler, called the way Next.js route handlers, Hono or Bun call
// it: a Web `Request` in, a Web `Response` out, no server in between.
let dir: string;
let handler: TminusHandler;
let key: IssuedApiKey;
let close: () => Promise<void>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "tminus-fetch-"));
  const store = sqliteStore({ path: join(dir, "db.sqlite") });
  handler = createHandler({ store, config: { max_body_bytes: 1024 } });
  key = await createAdmin({ store }).issueKey({ account: "fetch", environment: "production" });
  close = async () => {
    await handler.close();
    await store.close();
  };
});
afterAll(async () => {
  await close();
  rmSync(dir, { recursive: true, force: true });
});

const auth = () => ({ authorization: `Bearer ${key.secret}` });

describe("createHandler: (Request) => Promise<Response>", () => {
  it("answers a Web Request with a Web Response", async () => {
    const res = await handler(
      new Request("https://example.test/api/v1/usage", { headers: auth() }),
    );
    expect(res).toBeInstanceOf(Response);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect((await res.json()).data.environment).toBe("production");
  });

  it("reads a streamed body and enforces the size limit while streaming", async () => {
    const created = await handler(
      new Request("https://example.test/api/v1/timers", {
        method: "POST",
        headers: { ...auth(), "content-type": "application/json", "idempotency-key": "f1" },
        body: JSON.stringify({
          name: "Fetch",
          type: "fixed",
          deadline_at: "2031-05-01T12:00:00+02:00",
        }),
      }),
    );
    expect(created.status).toBe(201);
    expect((await created.json()).data.deadline_at).toBe("2031-05-01T10:00:00.000Z");

    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 10; i++) controller.enqueue(new TextEncoder().encode("x".repeat(200)));
        controller.close();
      },
    });
    const big = await handler(
      new Request("https://example.test/api/v1/timers", {
        method: "POST",
        headers: { ...auth(), "content-type": "application/json", "idempotency-key": "f2" },
        body: stream,
        // @ts-expect-error Node's fetch needs duplex for a streamed body
        duplex: "half",
      }),
    );
    expect(big.status).toBe(400);
    expect((await big.json()).error.details.field).toBe("body");
  });

  it("answers a revalidated email image 304 with no body (a Response refuses one)", async () => {
    const created = await handler(
      new Request("https://example.test/api/v1/timers", {
        method: "POST",
        headers: { ...auth(), "content-type": "application/json", "idempotency-key": "f3" },
        body: JSON.stringify({ name: "Img", type: "fixed", deadline_at: "2031-05-01T10:00:00Z" }),
      }),
    );
    const timer = (await created.json()).data;
    const published = await handler(
      new Request(`https://example.test/api/v1/timers/${timer.id}/publish`, {
        method: "POST",
        headers: { ...auth(), "if-match": timer.revision },
      }),
    );
    expect(published.status).toBe(200);
    const url = `https://example.test/t/${timer.id}/countdown.png?width=200`;
    const first = await handler(new Request(url));
    await first.arrayBuffer();
    const etag = first.headers.get("etag");
    expect(etag).not.toBeNull();
    // Within the same second (the clock is real here, so retry across a second boundary).
    let again = await handler(new Request(url, { headers: { "if-none-match": etag! } }));
    if (again.status === 200) {
      await again.arrayBuffer();
      const tag = again.headers.get("etag")!;
      again = await handler(new Request(url, { headers: { "if-none-match": tag } }));
    }
    expect(again.status).toBe(304);
    expect(again.body).toBeNull();
  });

  it("an unexpected fault is a 500 internal_error with the envelope and no stack", async () => {
    // A real fault: the database connection is gone under a live handler.
    const store = sqliteStore({ path: join(dir, "closed.sqlite") });
    const k = await createAdmin({ store }).issueKey({ account: "gone", environment: "sandbox" });
    const faults: unknown[] = [];
    const broken = createHandler({ store, onError: (e) => faults.push(e) });
    await store.close();
    const res = await broken(
      new Request("https://example.test/api/v1/usage", {
        headers: { authorization: `Bearer ${k.secret}` },
      }),
    );
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(body.error.code).toBe("internal_error");
    expect(faults).toHaveLength(1);
    expect(JSON.stringify(body)).not.toContain(String((faults[0] as Error).message));
    expect(res.headers.get("x-request-id")).toBe(body.request_id);
  });
});
