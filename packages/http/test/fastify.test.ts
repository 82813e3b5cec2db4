// The Fastify plugin in-process, through Fastify's own `inject` (how Fastify users test their
// apps): bodies reach the handler, the prefix is kept in URLs, other paths are Fastify's.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Store } from "@tminus/store";
import { sqliteStore } from "@tminus/store/sqlite";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tminusFastify } from "../src/front-ends/fastify";
import { createAdmin, createHandler, type IssuedApiKey, type TminusHandler } from "../src/index";

let dir = "";
let store: Store;
let handler: TminusHandler;
let app: FastifyInstance;
let key: IssuedApiKey;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "tminus-fastify-"));
  store = sqliteStore({ path: join(dir, "tminus.db") });
  key = await createAdmin({ store }).issueKey({ account: "fastify", environment: "production" });
  handler = createHandler({ store, config: { render: { threads: 0 } } });
  app = Fastify();
  app.post("/orders", async (req) => ({ received: req.body }));
  await app.register(tminusFastify, { handler, prefix: "/countdown" });
});

afterAll(async () => {
  await app.close();
  await handler.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("tminusFastify", () => {
  it("passes bodies to the handler and keeps the prefix in the URLs it builds", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/countdown/api/v1/timers",
      headers: {
        authorization: `Bearer ${key.secret}`,
        "content-type": "application/json",
        "idempotency-key": crypto.randomUUID(),
      },
      payload: JSON.stringify({ type: "fixed", name: "F", deadline_at: "2030-01-01T00:00:00Z" }),
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.id;
    expect(res.headers.location).toBe(`http://localhost:80/countdown/api/v1/timers/${id}`);
  });

  it("answers a request whose body it never reads (refused before it mattered)", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/countdown/api/v1/timers",
      headers: { "content-type": "application/json" },
      payload: "{}",
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe("unauthorized");
  });

  it("leaves the app's own parsed routes and unknown paths to Fastify", async () => {
    const order = await app.inject({ method: "POST", url: "/orders", payload: { sku: "A1" } });
    expect(order.json()).toEqual({ received: { sku: "A1" } });
    const other = await app.inject({ method: "GET", url: "/countdown/elsewhere" });
    expect(other.statusCode).toBe(404);
    expect(other.headers["x-request-id"]).toBeUndefined();
  });
});
