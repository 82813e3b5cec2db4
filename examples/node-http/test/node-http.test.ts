import { describe, expect, it } from "vitest";
import { driveMountedApp, useExample } from "../../_harness/mounted";

const app = useExample(new URL("../server.js", import.meta.url));

describe("examples/node-http: tminus under /countdown on a plain node:http server", () => {
  it("serves the API, the public routes and the evergreen cookie under the prefix", async () => {
    await driveMountedApp(app.origin, app.secret);
  });

  it("leaves every other path to the app", async () => {
    expect(await (await fetch(`${app.origin}/health`)).json()).toEqual({ ok: true });
    // /api/v1 outside the prefix is not tminus's.
    const outside = await fetch(`${app.origin}/api/v1/usage`);
    expect(outside.status).toBe(404);
    expect(outside.headers.get("x-request-id")).toBeNull();
  });
});
