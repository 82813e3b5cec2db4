// Absolute URLs follow the request: origin, mount prefix (Express strips it; `basePath` for
// frameworks that pass the full path), and a proxy's forwarded headers only with trustProxy.
// Cookies, Location, `urls`, the embed script and the hosted page all agree.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Store } from "@tminus/store";
import { sqliteStore } from "@tminus/store/sqlite";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createAdmin,
  createHandler,
  createNodeListener,
  type IssuedApiKey,
  type TminusHandler,
} from "../src/index";

let dir = "";
let store: Store;
let key: IssuedApiKey;
const handlers: TminusHandler[] = [];
const servers: Server[] = [];

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function handler(
  options: Parameters<typeof createHandler>[0] extends infer O ? Partial<O> : never,
) {
  const h = createHandler({ store, config: { render: { threads: 0 } }, ...options });
  handlers.push(h);
  return h;
}

const auth = () => ({ authorization: `Bearer ${key.secret}`, "content-type": "application/json" });

/** Creates and publishes a duration timer through `base` (a URL with any prefix). */
async function publishedDuration(base: string, headers: Record<string, string> = {}) {
  const created = await fetch(`${base}/api/v1/timers`, {
    method: "POST",
    headers: { ...auth(), ...headers, "idempotency-key": crypto.randomUUID() },
    body: JSON.stringify({ type: "duration", name: "Mounted", duration_seconds: 3600 }),
  });
  expect(created.status).toBe(201);
  const body = await created.json();
  const published = await fetch(`${base}/api/v1/timers/${body.data.id}/publish`, {
    method: "POST",
    headers: { ...auth(), ...headers, "if-match": body.data.revision },
  });
  expect(published.status).toBe(200);
  return { location: created.headers.get("location"), timer: (await published.json()).data };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "tminus-mount-"));
  store = sqliteStore({ path: join(dir, "tminus.db") });
  key = await createAdmin({ store }).issueKey({ account: "mounted", environment: "production" });
});

afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
  for (const h of handlers) await h.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("URLs from the request", () => {
  it("under Express at /countdown: Location, urls, embed.js and the viewer cookie carry the prefix", async () => {
    const app = express();
    app.use("/countdown", createNodeListener(handler({})));
    app.get("/", (_req, res) => {
      res.send("the app's own page");
    });
    const url = await listen(createServer(app));
    const base = `${url}/countdown`;
    const { location, timer } = await publishedDuration(base);
    expect(location).toBe(`${base}/api/v1/timers/${timer.id}`);
    expect(timer.urls.page).toBe(`${base}/t/${timer.id}`);
    expect(timer.urls.embed_script).toBe(`${base}/embed.js`);
    // The email link leads to the hosted page under the prefix, with the recipient's `r`.
    const go = await fetch(`${base}/t/${timer.id}/go?r=ann`, { redirect: "manual" });
    await go.arrayBuffer();
    expect(go.headers.get("location")).toBe(`${base}/t/${timer.id}?r=ann`);
    const script = await (await fetch(timer.urls.embed_script)).text();
    // The script frames only embeds of this origin.
    expect(script).toContain(`var ORIGIN = ${JSON.stringify(url)};`);
    // The app keeps its own routes.
    expect(await (await fetch(`${url}/`)).text()).toBe("the app's own page");
    // The page's font and share image live under the prefix too.
    const html = await (await fetch(timer.urls.page)).text();
    expect(html).toContain(
      `<meta property="og:image" content="${base}/t/${timer.id}/countdown.png?width=1200">`,
    );
    const font = /url\("([^"]+\.woff2)"\)/.exec(html)![1]!;
    expect(font.startsWith(`${base}/t/assets/fonts/`)).toBe(true);
    expect((await fetch(font)).status).toBe(200);

    // An evergreen timer counts from the viewer's first visit: the cookie must come back.
    const first = await fetch(timer.urls.page);
    const cookie = first.headers.get("set-cookie")!;
    expect(cookie).toContain(`Path=/countdown/t/${timer.id}`);
    const again = await fetch(timer.urls.page, { headers: { cookie: cookie.split(";")[0]! } });
    expect(again.headers.get("set-cookie")).toBeNull();
  });

  it("a basePath serves frameworks that pass the full path (Fetch handler)", async () => {
    const h = handler({ basePath: "/countdown" });
    const base = "https://shop.example/countdown";
    const res = await h(
      new Request(`${base}/api/v1/timers`, {
        method: "POST",
        headers: { ...auth(), "idempotency-key": crypto.randomUUID() },
        body: JSON.stringify({ type: "fixed", name: "Next", deadline_at: "2030-01-01T00:00:00Z" }),
      }),
    );
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(res.headers.get("location")).toBe(`${base}/api/v1/timers/${body.data.id}`);
    // Outside the basePath nothing is answered as ours.
    const outside = await h(new Request("https://shop.example/api/v1/usage", { headers: auth() }));
    expect(outside.status).toBe(404);
  });

  it("a basePath behind node:http keeps the request's query and origin", async () => {
    const url = await listen(createServer(createNodeListener(handler({ basePath: "/countdown" }))));
    for (let i = 0; i < 2; i++) {
      const created = await fetch(`${url}/countdown/api/v1/timers`, {
        method: "POST",
        headers: { ...auth(), "idempotency-key": crypto.randomUUID() },
        body: JSON.stringify({ type: "fixed", name: `B${i}`, deadline_at: "2030-01-01T00:00:00Z" }),
      });
      expect(created.status).toBe(201);
      const { data } = await created.json();
      // The origin is the connection's, the prefix the basePath.
      expect(created.headers.get("location")).toBe(`${url}/countdown/api/v1/timers/${data.id}`);
    }
    const page = await fetch(`${url}/countdown/api/v1/timers?limit=1`, { headers: auth() });
    expect(page.status).toBe(200);
    const listed = await page.json();
    expect(listed.data).toHaveLength(1);
    expect(listed.page.has_more).toBe(true);
  });

  it("forwarded headers count only with trustProxy", async () => {
    const forwarded = {
      "x-forwarded-proto": "https",
      "x-forwarded-host": "countdown.example.com",
      "x-forwarded-prefix": "/edge",
    };
    const plain = await listen(createServer(createNodeListener(handler({}))));
    const ignored = await publishedDuration(plain, forwarded);
    expect(ignored.timer.urls.page).toBe(`${plain}/t/${ignored.timer.id}`);

    const proxied = await listen(createServer(createNodeListener(handler({ trustProxy: true }))));
    const honoured = await publishedDuration(proxied, forwarded);
    expect(honoured.timer.urls.page).toBe(
      `https://countdown.example.com/edge/t/${honoured.timer.id}`,
    );
    expect(honoured.location).toBe(
      `https://countdown.example.com/edge/api/v1/timers/${honoured.timer.id}`,
    );
    const rfc = await publishedDuration(proxied, {
      forwarded: 'for=1.2.3.4;proto=https;host="cd.example"',
    });
    expect(rfc.timer.urls.page).toBe(`https://cd.example/t/${rfc.timer.id}`);
    // A secure origin makes the viewer cookie Secure.
    const page = await fetch(`${proxied}/t/${honoured.timer.id}`, { headers: forwarded });
    // Link previews fetch the image from the outside: its URL is the public one.
    expect(await page.clone().text()).toContain(
      `<meta property="og:image" content="https://countdown.example.com/edge/t/${honoured.timer.id}/countdown.png?width=1200">`,
    );
    expect(page.headers.get("set-cookie")).toContain("Secure");
    expect(page.headers.get("set-cookie")).toContain(`Path=/edge/t/${honoured.timer.id}`);
  });

  it("a configured base_url wins over the request", async () => {
    const url = await listen(
      createServer(
        createNodeListener(
          handler({ config: { base_url: "https://fixed.example/cd/", render: { threads: 0 } } }),
        ),
      ),
    );
    const { timer } = await publishedDuration(url);
    expect(timer.urls.page).toBe(`https://fixed.example/cd/t/${timer.id}`);
  });
});
