import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, startTestServer, type TestServer } from "./_harness";

let s: TestServer;
beforeAll(async () => {
  // Webhook settings are the defaults (HTTPS only, no private destinations) but the limit.
  s = await startTestServer({
    sandbox: { requests_per_minute: 100_000 },
    plans: { starter: { requests_per_minute: 100_000 } },
    webhooks: { max_destinations: 3 },
  });
});
afterAll(() => s.close());

const URL_OK = "https://hooks.example.com/tminus";

async function create(key: Awaited<ReturnType<TestServer["key"]>>, body: unknown) {
  return s.call("POST", "/api/v1/webhook-destinations", { key, body });
}

describe("POST /webhook-destinations", () => {
  it("creates a destination and shows its secret once", async () => {
    const key = await s.key("production");
    const res = await create(key, {
      url: URL_OK,
      description: "orders",
      events: ["timer.created"],
    });
    expect(res.status, res.text).toBe(201);
    const d = res.json.data;
    expect(d).toMatchObject({
      object: "webhook_destination",
      url: URL_OK,
      description: "orders",
      events: ["timer.created"],
      enabled: true,
      disabled_reason: null,
      previous_secret_expires_at: null,
    });
    // whsec_ + base64 of 32 random bytes.
    expect(d.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(d.secret.slice(6), "base64")).toHaveLength(32);
    const read = await s.call("GET", `/api/v1/webhook-destinations/${d.id}`, { key });
    expect(read.status).toBe(200);
    expect(read.json.data.secret).toBeUndefined();
    const list = await s.call("GET", "/api/v1/webhook-destinations", { key });
    expect(list.json.data.map((x: { id: string }) => x.id)).toEqual([d.id]);
    expect(list.json.data[0].secret).toBeUndefined();
  });

  it("validates the body: every error in the envelope, naming the field", async () => {
    const key = await s.key("production");
    const cases: [unknown, number, string, string][] = [
      [{}, 400, "missing_field", "url"],
      [{ url: 5 }, 400, "validation_error", "url"],
      [{ url: "not a url" }, 400, "validation_error", "url"],
      [{ url: "http://hooks.example.com/x" }, 400, "validation_error", "url"],
      [{ url: "ftp://hooks.example.com/x" }, 400, "validation_error", "url"],
      [{ url: "https://user:pw@hooks.example.com/x" }, 400, "validation_error", "url"],
      [{ url: "https://hooks.example.com/x#frag" }, 400, "validation_error", "url"],
      [{ url: `https://hooks.example.com/${"a".repeat(2048)}` }, 400, "validation_error", "url"],
      [{ url: "https://127.0.0.1/x" }, 400, "validation_error", "url"],
      [{ url: "https://[::1]/x" }, 400, "validation_error", "url"],
      [{ url: "https://localhost/x" }, 400, "validation_error", "url"],
      // A trailing dot names the same host to a resolver.
      [{ url: "https://localhost./x" }, 400, "validation_error", "url"],
      [{ url: "https://LOCALHOST../x" }, 400, "validation_error", "url"],
      [{ url: "https://api.localhost./x" }, 400, "validation_error", "url"],
      [{ url: "https://127.0.0.1./x" }, 400, "validation_error", "url"],
      [{ url: "https://169.254.169.254/latest" }, 400, "validation_error", "url"],
      [{ url: "https://10.1.2.3/x" }, 400, "validation_error", "url"],
      [{ url: "https://[::ffff:127.0.0.1]/x" }, 400, "validation_error", "url"],
      [{ url: URL_OK, description: "d".repeat(501) }, 400, "validation_error", "description"],
      [{ url: URL_OK, events: ["timer.ended"] }, 400, "validation_error", "events[0]"],
      [
        { url: URL_OK, events: ["timer.created", "timer.created"] },
        400,
        "validation_error",
        "events",
      ],
      [{ url: URL_OK, enabled: "yes" }, 400, "validation_error", "enabled"],
      [{ url: URL_OK, colour: "red" }, 400, "validation_error", "colour"],
      ["[1]", 400, "validation_error", "body"],
    ];
    for (const [body, status, code, field] of cases) {
      const res = await create(key, body);
      const error = expectError(res, status, code);
      expect(error.details?.field, JSON.stringify(body).slice(0, 80)).toBe(field);
    }
    const metadata = expectError(
      await create(key, { url: "https://169.254.169.254/" }),
      400,
      "validation_error",
    );
    expect(metadata.message).toContain("metadata");
  });

  it("refuses more than webhooks.max_destinations per environment", async () => {
    const key = await s.key("production");
    for (let i = 0; i < 3; i++) expect((await create(key, { url: URL_OK })).status).toBe(201);
    const err = expectError(await create(key, { url: URL_OK }), 400, "validation_error");
    expect(err.details).toMatchObject({ field: "destinations", reason: "limit_reached", limit: 3 });
    // The other environment has its own destinations.
    const sandbox = await s.key("sandbox", key.account);
    expect((await create(sandbox, { url: URL_OK })).status).toBe(201);
  });
});

describe("GET, PATCH, DELETE /webhook-destinations/{id} and rotate-secret", () => {
  it("updates, disables, rotates, deletes; ids are checked and scoped", async () => {
    const key = await s.key("production");
    const d = (await create(key, { url: URL_OK })).json.data;
    const path = `/api/v1/webhook-destinations/${d.id}`;
    const patched = await s.call("PATCH", path, {
      key,
      body: { url: "https://other.example.com/in", description: "x", enabled: false },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json.data).toMatchObject({
      url: "https://other.example.com/in",
      description: "x",
      enabled: false,
      disabled_reason: "disabled",
    });
    expect(patched.json.data.secret).toBeUndefined();
    expectError(
      await s.call("PATCH", path, { key, body: { url: "http://other.example.com/in" } }),
      400,
      "validation_error",
    );
    const enabled = await s.call("PATCH", path, {
      key,
      body: { enabled: true, description: null },
    });
    expect(enabled.json.data).toMatchObject({
      enabled: true,
      disabled_reason: null,
      description: null,
    });

    const rotated = await s.call("POST", `${path}/rotate-secret`, { key });
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.json.data.secret).toMatch(/^whsec_/);
    expect(rotated.json.data.secret).not.toBe(d.secret);
    const expires = Date.parse(rotated.json.data.previous_secret_expires_at);
    expect(expires - Date.now()).toBeGreaterThan(24 * 3_600_000 - 60_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(24 * 3_600_000);
    expectError(
      await s.call("POST", `${path}/rotate-secret`, { key, body: { secret: "mine" } }),
      400,
      "validation_error",
    );

    // Other environment or account: the destination does not exist from that key's view.
    const sandbox = await s.key("sandbox", key.account);
    const stranger = await s.key("production");
    for (const other of [sandbox, stranger]) {
      expectError(await s.call("GET", path, { key: other }), 404, "not_found");
      expectError(await s.call("DELETE", path, { key: other }), 404, "not_found");
    }
    for (const [method, suffix] of [
      ["GET", ""],
      ["PATCH", ""],
      ["DELETE", ""],
      ["POST", "/rotate-secret"],
    ] as const) {
      const res = await s.call(method, `/api/v1/webhook-destinations/not-a-uuid${suffix}`, {
        key,
        body: method === "PATCH" ? { enabled: true } : undefined,
      });
      expect(expectError(res, 400, "validation_error").details?.field).toBe("destination_id");
    }

    const deleted = await s.call("DELETE", path, { key });
    expect(deleted.json.data).toEqual({ id: d.id, object: "webhook_destination", deleted: true });
    expectError(await s.call("GET", path, { key }), 404, "not_found");
    expectError(await s.call("DELETE", path, { key }), 404, "not_found");
  });

  it("pages newest first with cursors bound to the query", async () => {
    const key = await s.key("production");
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await create(key, { url: URL_OK })).json.data.id);
    const first = await s.call("GET", "/api/v1/webhook-destinations?limit=2", { key });
    expect(first.json.page.has_more).toBe(true);
    const second = await s.call(
      "GET",
      `/api/v1/webhook-destinations?limit=2&cursor=${encodeURIComponent(first.json.page.next_cursor)}`,
      { key },
    );
    expect(second.json.page).toEqual({ has_more: false, next_cursor: null });
    const seen = [...first.json.data, ...second.json.data].map((d: { id: string }) => d.id);
    expect(seen.sort()).toEqual(ids.sort());
    expectError(
      await s.call("GET", "/api/v1/webhook-destinations?status=x", { key }),
      400,
      "validation_error",
    );
  });

  it("needs the webhooks scopes", async () => {
    const reader = await s.key("production", undefined, ["webhooks:read"]);
    expect((await s.call("GET", "/api/v1/webhook-destinations", { key: reader })).status).toBe(200);
    expectError(await create(reader, { url: URL_OK }), 403, "forbidden");
    const timers = await s.key("production", undefined, ["timers:read"]);
    expectError(
      await s.call("GET", "/api/v1/webhook-deliveries", { key: timers }),
      403,
      "forbidden",
    );
  });
});
