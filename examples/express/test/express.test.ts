import { describe, expect, it } from "vitest";
import { driveMountedApp, useExample } from "../../_harness/mounted";

const app = useExample(new URL("../server.js", import.meta.url));

describe("examples/express: tminus mounted in an existing Express app", () => {
  it("serves the API, the public routes and the evergreen cookie under /countdown", async () => {
    await driveMountedApp(app.origin, app.secret);
  });

  it("the app's own routes still work, JSON body parser included", async () => {
    expect(await (await fetch(`${app.origin}/health`)).json()).toEqual({ ok: true });
    const res = await fetch(`${app.origin}/orders`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ sku: "A1" }),
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ received: { sku: "A1" } });
  });

  it("without a key the API answers 401 with the envelope", async () => {
    const res = await fetch(`${app.origin}/countdown/api/v1/usage`);
    expect(res.status).toBe(401);
    expect((await res.json()).error.code).toBe("unauthorized");
  });

  it("paths outside /api/v1 fall through to the app (Express's own 404)", async () => {
    const res = await fetch(`${app.origin}/countdown/elsewhere`);
    expect(res.status).toBe(404);
    expect(res.headers.get("x-request-id")).toBeNull();
  });
});
