import { describe, expect, it } from "vitest";
import { driveMountedApp, useExample } from "../../_harness/mounted";

const app = useExample(new URL("../server.js", import.meta.url));

describe("examples/hono: tminus under /countdown in a Hono app on @hono/node-server", () => {
  it("serves the API, the public routes and the evergreen cookie under the prefix", async () => {
    await driveMountedApp(app.origin, app.secret);
  });

  it("the app keeps its own routes", async () => {
    expect(await (await fetch(`${app.origin}/health`)).json()).toEqual({ ok: true });
  });
});
