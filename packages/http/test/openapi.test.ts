import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { timerPatchSchemas, timerSchemas } from "@tminus/core";
import { WEBHOOK_EVENT_TYPES } from "@tminus/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRoutes } from "../src/api/routes";
import { buildOpenApiDocument } from "../src/index";
import { requestSchemas, responseSchemas } from "../src/schemas/registry";
import { expectError, startTestServer, type TestServer } from "./_harness";
import { createResponseValidator } from "./_openapi";

const BASE_URL = "https://countdown.example.com";
const DOCS_FILE = fileURLToPath(new URL("../../../docs/openapi.json", import.meta.url));

// biome-ignore lint/suspicious/noExplicitAny: the test walks arbitrary JSON of the document.
type Json = Record<string, any>;
const doc = buildOpenApiDocument() as Json;
const METHODS = ["get", "put", "post", "delete", "patch"];
// The operations of /api/v1; the health probes (path items with their own root server) apart.
const operations = Object.entries(doc.paths as Json)
  .filter(([, item]) => !("servers" in item))
  .flatMap(([path, item]) =>
    METHODS.filter((m) => m in item).map((method) => ({ path, method, op: item[method] as Json })),
  );

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ base_url: BASE_URL });
});
afterAll(() => s.close());

/** Resolves a local `$ref` ("#/components/...") in the document. */
function resolve(ref: string): unknown {
  return ref
    .slice(2)
    .split("/")
    .map((p) => p.replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce<unknown>((node, key) => (node as Json | undefined)?.[key], doc);
}

describe("GET /openapi.json", () => {
  it("is served without a key, not counted and not logged", async () => {
    const key = await s.key("production");
    const res = await s.call("GET", "/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get("ratelimit-limit")).toBeNull();
    expect(res.json.openapi).toBe("3.1.0");
    // A bad key does not matter either: authentication never runs for this path.
    const withBadKey = await s.call("GET", "/openapi.json", { key: "svc_live_nope" });
    expect(withBadKey.status).toBe(200);
    const usage = await s.call("GET", "/api/v1/usage", { key });
    expect(usage.json.data.metrics[1].total).toBe(1); // only this GET /usage
  });

  it("is the built document with this deployment's base_url as its server", async () => {
    const res = await s.call("GET", "/openapi.json");
    expect(res.json).toEqual(buildOpenApiDocument({ baseUrl: BASE_URL }));
    expect(res.json.servers).toEqual([{ url: `${BASE_URL}/api/v1`, description: "This service." }]);
  });

  it("lives beside /api/v1, not under it: every path under /api/v1 needs a key", async () => {
    expectError(await s.call("GET", "/api/v1/openapi.json"), 401, "unauthorized");
    const key = await s.key("production");
    expectError(await s.call("GET", "/api/v1/openapi.json", { key }), 404, "not_found");
  });
});

describe("the document", () => {
  it("is OpenAPI 3.1 with the structure tools rely on", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.title).toBeTruthy();
    expect(doc.info.description).toContain("Idempotency");
    expect(doc.servers[0].url).toBe("{base_url}/api/v1");
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: "http", scheme: "bearer" });
    // Every webhook event type is described in the webhooks section (docs/webhooks.md).
    expect(Object.keys(doc.webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    const ids = operations.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, method, op } of operations) {
      const where = `${method} ${path}`;
      expect(op.summary, where).toBeTruthy();
      expect(op.description, where).toBeTruthy();
      expect(
        Object.keys(op.responses).some((s) => s.startsWith("2")),
        where,
      ).toBe(true);
    }
  });

  it("every $ref resolves", () => {
    const refs = new Set<string>();
    const walk = (node: unknown) => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === "object") {
        for (const [k, v] of Object.entries(node)) {
          if (k === "$ref" && typeof v === "string") refs.add(v);
          else walk(v);
        }
      }
    };
    walk(doc);
    expect(refs.size).toBeGreaterThan(20);
    for (const ref of refs) expect(resolve(ref), ref).toBeDefined();
  });

  it("documents the health probes at the service's root, without a key, as they answer", async () => {
    const probes = Object.entries(doc.paths as Json).filter(([, item]) => "servers" in item);
    expect(probes.map(([path]) => path)).toEqual(["/healthz", "/readyz"]);
    for (const [path, item] of probes) {
      expect(item.servers[0].url, path).toBe("{base_url}");
      const served = buildOpenApiDocument({ baseUrl: BASE_URL }) as Json;
      expect(served.paths[path].servers, path).toEqual([
        { url: BASE_URL, description: "This service." },
      ]);
      expect(item.get.security, path).toEqual([]);
      // The harness validates each answer against this document.
      const res = await s.call("GET", path);
      expect(res.status, path).toBe(200);
      expect(res.json.request_id).toBe(res.headers.get("x-request-id"));
    }
    expect(Object.keys(doc.paths["/readyz"].get.responses)).toEqual(["200", "503"]);
  });

  it("documents every route of the route table, with its scope, and nothing else", () => {
    for (const route of apiRoutes) {
      const op = doc.paths[route.path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.path} is not in the OpenAPI document`).toBeDefined();
      // The document-wide bearer requirement applies; the scope is named beside it, where
      // linters accept it (scopes on an http scheme are flagged).
      expect(op.security, `${route.method} ${route.path}`).toBeUndefined();
      expect(op["x-scopes"], `${route.method} ${route.path}`).toEqual(
        route.scope === null ? [] : [route.scope],
      );
      expect(op.description, `${route.method} ${route.path}`).toContain(
        route.scope === null ? "Scope: none" : `Scope: \`${route.scope}\`.`,
      );
      for (const name of route.path.match(/\{(\w+)\}/g) ?? []) {
        const params = (op.parameters ?? []).map((p: Json) => (p.$ref ? resolve(p.$ref) : p));
        expect(params.some((p: Json) => p.in === "path" && `{${p.name}}` === name)).toBe(true);
      }
    }
    const registered = new Set(apiRoutes.map((r) => `${r.method.toLowerCase()} ${r.path}`));
    for (const { path, method } of operations) {
      expect(registered.has(`${method} ${path}`), `${method} ${path} is not a route`).toBe(true);
    }
  });

  it("documents the errors every authenticated operation can give, with an example each", () => {
    for (const { path, method, op } of operations) {
      const where = `${method} ${path}`;
      const codes = new Set<string>();
      for (const [status, raw] of Object.entries(op.responses as Json)) {
        if (status.startsWith("2")) continue;
        const response = (raw.$ref ? resolve(raw.$ref) : raw) as Json;
        const media = response.content["application/json"];
        const listed: string[] = media.schema.properties.error.properties.code.enum;
        const shown = Object.values(media.examples as Json).map((e: Json) => e.value.error.code);
        expect(new Set(shown), `${where} ${status}`).toEqual(new Set(listed));
        for (const code of listed) codes.add(code);
        expect(response.headers["X-Request-Id"], `${where} ${status}`).toBeDefined();
      }
      for (const code of ["unauthorized", "invalid_api_key", "forbidden", "suspended"]) {
        expect(codes.has(code), `${where} lacks ${code}`).toBe(true);
      }
      expect(codes.has("rate_limited"), where).toBe(true);
      expect(codes.has("internal_error"), where).toBe(true);
      if (path.includes("{timer_id}")) {
        expect(codes.has("invalid_timer_id") && codes.has("not_found"), where).toBe(true);
      }
      const headers = op.responses[Object.keys(op.responses)[0]!].headers;
      for (const h of [
        "X-Request-Id",
        "RateLimit-Limit",
        "RateLimit-Remaining",
        "RateLimit-Reset",
      ]) {
        expect(headers[h], `${where} success lacks ${h}`).toBeDefined();
      }
    }
    const create = doc.paths["/timers"].post;
    expect(create.parameters).toContainEqual({ $ref: "#/components/parameters/IdempotencyKey" });
    expect(doc.paths["/timers/{timer_id}"].patch.parameters).toContainEqual({
      $ref: "#/components/parameters/IfMatch",
    });
    expect(Object.keys(create.responses["201"].headers)).toEqual(
      expect.arrayContaining(["ETag", "Location", "Idempotent-Replayed"]),
    );
  });

  it("takes request bodies from the zod schemas of @tminus/core", () => {
    const create = doc.components.schemas.TimerCreate;
    expect(create.oneOf).toHaveLength(4);
    for (const variant of create.oneOf as Json[]) {
      const type = variant.properties.type.const as keyof typeof timerSchemas;
      expect(Object.keys(variant.properties).sort()).toEqual(
        Object.keys(timerSchemas[type].shape).sort(),
      );
      expect(variant.additionalProperties).toBe(false);
    }
    const patch = doc.components.schemas.TimerPatch;
    expect(patch.anyOf.map((v: Json) => Object.keys(v.properties).sort())).toEqual(
      (["fixed", "duration", "recurring", "personalized"] as const).map((t) =>
        Object.keys(timerPatchSchemas[t].shape).sort(),
      ),
    );
    // Input schemas leave defaulted fields optional; the response side fills them.
    expect(create.oneOf[0].required).not.toContain("timezone");
    const timer = doc.components.schemas.Timer.oneOf[0];
    expect(timer.required).toContain("timezone");
    expect(timer.properties.look).toEqual({ $ref: "#/components/schemas/Look" });
  });

  it("keeps request and response components apart; request defaults are described, not declared", () => {
    // Component names reachable from a node, following $refs through components.schemas.
    const reachable = (node: unknown, into = new Set<string>()): Set<string> => {
      if (Array.isArray(node)) for (const item of node) reachable(item, into);
      else if (node && typeof node === "object") {
        for (const [k, v] of Object.entries(node)) {
          if (k === "$ref" && typeof v === "string" && v.startsWith("#/components/schemas/")) {
            const name = v.slice("#/components/schemas/".length);
            if (!into.has(name)) {
              into.add(name);
              reachable(doc.components.schemas[name], into);
            }
          } else reachable(v, into);
        }
      }
      return into;
    };
    const requests = new Set<string>();
    const responses = new Set<string>();
    for (const { op } of operations) {
      reachable(op.requestBody, requests);
      for (const [status, response] of Object.entries(op.responses as Json)) {
        if (status.startsWith("2")) reachable(response, responses);
      }
    }
    expect(requests.size).toBeGreaterThan(5);
    for (const name of requests) expect(Object.keys(requestSchemas), name).toContain(name);
    for (const name of responses) expect(Object.keys(responseSchemas), name).toContain(name);
    expect(requests).toContain("LookInput");
    expect(responses).toContain("Look");

    // openapi-typescript and others read `default` as "always present": request components
    // carry none (the description tells it), response components keep theirs.
    const defaults = (node: unknown, at: string): string[] => {
      if (Array.isArray(node)) return node.flatMap((item, i) => defaults(item, `${at}/${i}`));
      if (!node || typeof node !== "object") return [];
      return Object.entries(node).flatMap(([k, v]) => {
        if (k === "default") return [`${at}/default`];
        if (k === "examples" || k === "const" || k === "enum") return [];
        if (k !== "properties") return defaults(v, `${at}/${k}`);
        return Object.entries(v as Json).flatMap(([p, s]) => defaults(s, `${at}/properties/${p}`));
      });
    };
    for (const name of Object.keys(requestSchemas)) {
      expect(defaults(doc.components.schemas[name], name)).toEqual([]);
    }
    const fixed = doc.components.schemas.TimerCreate.oneOf[0].properties;
    expect(fixed.timezone.description).toContain('Default when omitted: `"Etc/UTC"`.');
    expect(fixed.look).toEqual({
      $ref: "#/components/schemas/LookInput",
      description: "Default when omitted: `{}`.",
    });
    const recurrence = doc.components.schemas.Recurrence;
    expect(recurrence.properties.exdates.default).toEqual([]);
    expect(recurrence.required).toContain("exdates");
  });

  it("is deterministic and docs/openapi.json is up to date (when built)", () => {
    expect(JSON.stringify(buildOpenApiDocument())).toBe(JSON.stringify(doc));
    const onDisk = JSON.parse(readFileSync(DOCS_FILE, "utf8"));
    expect(onDisk, "docs/openapi.json is stale: run pnpm build && pnpm openapi").toEqual(doc);
  });
});

describe("the response validator of the test harness", () => {
  const validate = createResponseValidator();
  const headers = (extra: Record<string, string> = {}) =>
    new Headers({
      "x-request-id": "6f1c2b9e-4d3a-4c55-9f0e-2b7d8a1e5c43",
      "ratelimit-limit": "30",
      "ratelimit-remaining": "29",
      "ratelimit-reset": "1795000000",
      ...extra,
    });
  const error = (code: string) =>
    JSON.stringify({
      error: { code, message: "m" },
      request_id: "6f1c2b9e-4d3a-4c55-9f0e-2b7d8a1e5c43",
    });

  it("accepts what the document describes", () => {
    const ok = validate({
      method: "GET",
      path: "/api/v1/timers/abc",
      status: 400,
      headers: headers(),
      text: error("invalid_timer_id"),
    });
    expect(ok).toBeNull();
    const unknown = { method: "GET", path: "/api/v1/nowhere", status: 404, headers: headers() };
    expect(validate({ ...unknown, text: error("not_found") })).toBeNull();
  });

  it("rejects undocumented fields, codes, statuses and missing headers", () => {
    const page = { has_more: false, next_cursor: null };
    const list = (data: unknown[]) =>
      JSON.stringify({ data, page, request_id: "6f1c2b9e-4d3a-4c55-9f0e-2b7d8a1e5c43" });
    const base = { method: "GET", path: "/api/v1/timezones?search=x", status: 200 };
    const zone = {
      object: "timezone",
      id: "Etc/UTC",
      utc_offset: "+00:00",
      utc_offset_minutes: 0,
      observes_dst: false,
    };
    const tz = { "tminus-tzdb-version": "2025b" };
    expect(validate({ ...base, headers: headers(tz), text: list([zone]) })).toBeNull();
    expect(
      validate({ ...base, headers: headers(tz), text: list([{ ...zone, extra: 1 }]) }),
    ).toContain("must NOT have additional properties");
    expect(validate({ ...base, headers: headers(), text: list([zone]) })).toContain(
      "Tminus-Tzdb-Version",
    );
    expect(validate({ ...base, status: 418, headers: headers(tz), text: "{}" })).toContain(
      "does not list",
    );
    const wrongCode = { ...base, status: 400, headers: headers(), text: error("quota_exhausted") };
    expect(validate(wrongCode)).toContain("must be equal to one of the allowed values");
    const notAnError = { method: "GET", path: "/elsewhere", status: 404, headers: headers() };
    expect(validate({ ...notAnError, text: "{}" })).toContain("required");
  });
});
