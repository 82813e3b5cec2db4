import { describe, expect, it } from "vitest";
import { driveMountedApp, useExample } from "../../_harness/mounted";

const app = useExample(new URL("../server.js", import.meta.url));

describe("examples/fastify: tminus under /countdown in a Fastify 5 app", () => {
  it("serves the API (bodies included), the public routes and the evergreen cookie", async () => {
    await driveMountedApp(app.origin, app.secret);
  });

  it("the app's own JSON parsing still works beside the plugin", async () => {
    expect(await (await fetch(`${app.origin}/health`)).json()).toEqual({ ok: true });
    const res = await fetch(`${app.origin}/orders`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ sku: "A1" }),
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ received: { sku: "A1" } });
  });

  it("a body without a content type and an oversized body reach the handler's own checks", async () => {
    const auth = { authorization: `Bearer ${app.secret}` };
    const untyped = await fetch(`${app.origin}/countdown/api/v1/timers`, {
      method: "POST",
      headers: { ...auth, "idempotency-key": crypto.randomUUID() },
      body: new Blob(["not json"]),
    });
    expect(untyped.status).toBe(400);
    expect((await untyped.json()).error.code).toBe("validation_error");
    const huge = await fetch(`${app.origin}/countdown/api/v1/timers`, {
      method: "POST",
      headers: {
        ...auth,
        "content-type": "application/json",
        "idempotency-key": crypto.randomUUID(),
      },
      body: JSON.stringify({ name: "x".repeat(2_000_000) }),
    });
    expect(huge.status).toBe(400);
    expect((await huge.json()).error.code).toBe("validation_error");
  });

  it("paths under the prefix that are not tminus's get Fastify's 404", async () => {
    const res = await fetch(`${app.origin}/countdown/elsewhere`);
    expect(res.status).toBe(404);
    expect(res.headers.get("x-request-id")).toBeNull();
  });
});
