// Without a base_url the handler builds URLs from the request's host, so `allowedHosts` (or
// the config's `allowed_hosts`) bounds which hosts it answers: any other gets the error
// envelope (400 validation_error, details.field "Host") and nothing is created, over real HTTP
// with Host headers fetch will not send. A forwarded host counts only with trustProxy, and is
// checked like Host. The entry grammar is a space: fast-check covers it.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Store } from "@tminus/store";
import { sqliteStore } from "@tminus/store/sqlite";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AllowedHostsError,
  allowedHostsCheck,
  ConfigError,
  createAdmin,
  createHandler,
  createNodeListener,
  type IssuedApiKey,
  resolveConfig,
  type TminusHandler,
} from "../src/index";

let dir = "";
let store: Store;
let key: IssuedApiKey;
const handlers: TminusHandler[] = [];
const servers: Server[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "tminus-hosts-"));
  store = sqliteStore({ path: join(dir, "tminus.db") });
  key = await createAdmin({ store }).issueKey({ account: "hosts", environment: "production" });
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

/** A handler with `options` on node:http over loopback; its port. */
async function serve(options: Partial<Parameters<typeof createHandler>[0]>): Promise<number> {
  const handler = createHandler({ store, config: { render: { threads: 0 } }, ...options });
  handlers.push(handler);
  const server = createServer(createNodeListener(handler));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return (server.address() as AddressInfo).port;
}

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  // biome-ignore lint/suspicious/noExplicitAny: bodies are checked field by field.
  json: any;
}

/** One request with exactly these headers (Host included), over node:http. */
function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (text += c));
      res.on("end", () =>
        resolve({
          status: res.statusCode!,
          headers: res.headers,
          json: text ? JSON.parse(text) : null,
        }),
      );
    });
    req.on("error", reject);
    req.end(body);
  });
}

const create = (port: number, headers: Record<string, string>) =>
  send(
    port,
    "POST",
    "/api/v1/timers",
    {
      authorization: `Bearer ${key.secret}`,
      "content-type": "application/json",
      "idempotency-key": crypto.randomUUID(),
      ...headers,
    },
    JSON.stringify({
      type: "fixed",
      name: `host ${crypto.randomUUID()}`,
      deadline_at: "2031-01-01T00:00:00Z",
    }),
  );

/** How many timers the key's account has, asked through a handler that answers any host. */
async function timerCount(): Promise<number> {
  counter ??= await serve({});
  const listed = await send(counter, "GET", "/api/v1/timers?limit=100", {
    authorization: `Bearer ${key.secret}`,
  });
  return listed.json.data.length;
}
let counter: number | undefined;

describe("allowedHosts over real HTTP", () => {
  it("answers the allowed hosts and refuses any other with the envelope, creating nothing", async () => {
    const port = await serve({
      allowedHosts: ["timers.example.test", "localhost:8787", ".shop.test"],
    });
    const ok = await create(port, { host: "timers.example.test" });
    expect(ok.status).toBe(201);
    expect(ok.headers.location).toMatch(/^http:\/\/timers\.example\.test\/api\/v1\/timers\//);
    expect((await create(port, { host: "TIMERS.example.test:9000" })).status).toBe(201);
    expect((await create(port, { host: "localhost:8787" })).status).toBe(201);
    expect((await create(port, { host: "eu.shop.test" })).status).toBe(201);

    const before = await timerCount();
    for (const host of [
      "attacker.example",
      "localhost:9999",
      "evilshop.test",
      "timers.example.test.attacker.example",
    ]) {
      const refused = await create(port, { host });
      expect(refused.status, host).toBe(400);
      expect(refused.json.error).toMatchObject({
        code: "validation_error",
        details: { field: "Host" },
      });
      expect(refused.json.error.message).toContain(host.toLowerCase());
      expect(refused.headers.location).toBeUndefined();
      expect(refused.headers["x-request-id"]).toBe(refused.json.request_id);
    }
    expect(await timerCount()).toBe(before);
    // The public pages too (they print absolute URLs); the probes answer any host.
    expect((await send(port, "GET", "/embed.js", { host: "attacker.example" })).status).toBe(400);
    expect((await send(port, "GET", "/healthz", { host: "attacker.example" })).status).toBe(200);
  });

  it("checks the forwarded host only with trustProxy, and then checks it too", async () => {
    const plain = await serve({ allowedHosts: ["timers.example.test"] });
    // Without trustProxy X-Forwarded-Host is ignored: Host decides, both ways.
    const ignored = await create(plain, {
      host: "timers.example.test",
      "x-forwarded-host": "attacker.example",
    });
    expect(ignored.status).toBe(201);
    expect(ignored.headers.location).toMatch(/^http:\/\/timers\.example\.test\//);
    expect(
      (await create(plain, { host: "attacker.example", "x-forwarded-host": "timers.example.test" }))
        .status,
    ).toBe(400);

    const proxied = await serve({ allowedHosts: ["timers.example.test"], trustProxy: true });
    const forwarded = await create(proxied, {
      host: "10.0.0.5:8787",
      "x-forwarded-host": "timers.example.test",
      "x-forwarded-proto": "https",
    });
    expect(forwarded.status).toBe(201);
    expect(forwarded.headers.location).toMatch(/^https:\/\/timers\.example\.test\//);
    expect(
      (
        await create(proxied, {
          host: "timers.example.test",
          "x-forwarded-host": "attacker.example",
        })
      ).status,
    ).toBe(400);
  });

  it("takes the config's allowed_hosts and trust_proxy; a base_url makes any Host harmless", async () => {
    const fromConfig = await serve({
      config: { render: { threads: 0 }, allowed_hosts: ["timers.example.test"], trust_proxy: true },
    });
    expect((await create(fromConfig, { host: "attacker.example" })).status).toBe(400);
    expect(
      (await create(fromConfig, { host: "x", "x-forwarded-host": "timers.example.test" })).status,
    ).toBe(201);

    const fixed = await serve({
      config: {
        render: { threads: 0 },
        base_url: "https://timers.example.com",
        allowed_hosts: ["only.test"],
      },
    });
    const anyHost = await create(fixed, { host: "attacker.example" });
    expect(anyHost.status).toBe(201);
    expect(anyHost.headers.location).toMatch(/^https:\/\/timers\.example\.com\//);

    // No list anywhere: the library answers every host, as before.
    expect((await create(await serve({}), { host: "whatever.test" })).status).toBe(201);
  });
});

describe("the allowed-hosts grammar", () => {
  const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/);
  const name = fc.array(label, { minLength: 1, maxLength: 4 }).map((parts) => parts.join("."));

  it("a name allows itself on any port, and no other name", () => {
    fc.assert(
      fc.property(name, name, fc.integer({ min: 1, max: 65535 }), (allowed, other, port) => {
        const check = allowedHostsCheck([allowed]);
        expect(check(allowed)).toBe(true);
        expect(check(`${allowed}:${port}`)).toBe(true);
        expect(check(`${allowed.toUpperCase()}:${port}`)).toBe(true);
        if (other !== allowed) expect(check(other)).toBe(false);
        expect(check(`${allowed}.${other}`)).toBe(false);
      }),
    );
  });

  it("a name:port allows that port only; a .domain its names and itself, never a look-alike", () => {
    fc.assert(
      fc.property(name, label, fc.integer({ min: 1, max: 65534 }), (domain, sub, port) => {
        const exact = allowedHostsCheck([`${domain}:${port}`]);
        expect(exact(`${domain}:${port}`)).toBe(true);
        expect(exact(`${domain}:${port + 1}`)).toBe(false);
        expect(exact(domain)).toBe(false);
        const wide = allowedHostsCheck([`.${domain}`]);
        expect(wide(`${sub}.${domain}`)).toBe(true);
        expect(wide(`${domain}:${port}`)).toBe(true);
        expect(wide(`${sub}${domain}`)).toBe(false);
      }),
    );
  });

  it("refuses entries that are not hosts, in one line, at start", () => {
    for (const bad of [
      "http://x.test",
      "x.test/path",
      "a b",
      "",
      "x.test:99999",
      ".x.test:80",
      "*.x.test",
    ]) {
      expect(() => allowedHostsCheck([bad]), bad).toThrow(AllowedHostsError);
      expect(() => resolveConfig({ allowed_hosts: [bad] }), bad).toThrow(ConfigError);
    }
    expect(() => resolveConfig({ allowed_hosts: "x.test" as never })).toThrow(
      "config.allowed_hosts must be a list of host names",
    );
    expect(() => resolveConfig({ trust_proxy: "yes" as never })).toThrow(ConfigError);
    expect(allowedHostsCheck(["[::1]"])("[::1]:8787")).toBe(true);
  });
});
