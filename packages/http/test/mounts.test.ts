// A mount given to createHandler({ mounts }): asked before the API, stamped like the handler's
// own answers, and able to run an /api/v1 operation in process through the API's pipeline.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MountFactory } from "../src/index";
import { startTestServer, type TestServer } from "./_harness";

/** Answers /echo-usage by calling GET /api/v1/usage in process with the request's key. */
const echoUsage =
  (metered: boolean): MountFactory =>
  (host) => ({
    handles: (path) => path === "/echo-usage",
    async handle(req, context) {
      context.outcome.route = "/echo-usage";
      const result = await host.invokeRoute({
        req: {
          method: "GET",
          path: "/api/v1/usage",
          query: new URLSearchParams(),
          origin: req.origin,
          mountPrefix: req.mountPrefix,
          header: (name) => req.header(name),
          text: (max) => req.text(max),
        },
        now: context.now,
        requestId: context.requestId,
        baseUrl: context.baseUrl,
        metered,
      });
      if (!("data" in result)) throw new Error("expected data");
      return {
        status: 200,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ echoed: result.data }),
      };
    },
  });

let s: TestServer;

describe("mounts given to createHandler", () => {
  beforeAll(async () => {
    s = await startTestServer({}, { handler: { mounts: [echoUsage(false)] } });
  });
  afterAll(() => s.close());

  it("answers its path, stamped with the request id; HEAD without the body", async () => {
    const key = await s.key();
    const headers = { authorization: `Bearer ${key.secret}` };
    const res = await fetch(`${s.url}/echo-usage`, { headers });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const body = (await res.json()) as { echoed: { metrics: unknown[] } };
    expect(body.echoed.metrics.length).toBeGreaterThan(0);
    const head = await fetch(`${s.url}/echo-usage`, { method: "HEAD", headers });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    expect(Number(head.headers.get("content-length"))).toBeGreaterThan(0);
  });

  it("runs the operation through the pipeline: no key, no answer; unmetered calls leave no log row", async () => {
    // The pipeline's authentication refuses; what a mount throws is answered in the envelope.
    const refused = await fetch(`${s.url}/echo-usage`);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
    const key = await s.key();
    await fetch(`${s.url}/echo-usage`, { headers: { authorization: `Bearer ${key.secret}` } });
    const log = await s.call("GET", "/api/v1/usage/requests", { key });
    expect(log.status).toBe(200);
    // Nothing before the read itself: the in-process call was not metered (the next test
    // shows the same call metered, and its row).
    expect(log.json.data).toEqual([]);
  });

  it("a metered in-process call is in the request log like an API request", async () => {
    const metered = await startTestServer({}, { handler: { mounts: [echoUsage(true)] } });
    try {
      const key = await metered.key();
      const res = await fetch(`${metered.url}/echo-usage`, {
        headers: { authorization: `Bearer ${key.secret}` },
      });
      expect(res.status).toBe(200);
      const log = await metered.call("GET", "/api/v1/usage/requests", { key });
      expect(log.json.data.map((e: { route: string }) => e.route)).toEqual(["/api/v1/usage"]);
    } finally {
      await metered.close();
    }
  });

  it("serves no dashboard unless one is mounted", async () => {
    const res = await s.call("GET", "/dashboard/sign-in");
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe("not_found");
  });
});
