// The OpenAPI document as client tools see it: the linters and validators people run on it
// accept it, and the types openapi-typescript generates (default options) accept exactly the
// minimal bodies and headers the service accepts, and refuse what it refuses.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import SwaggerParser from "@apidevtools/swagger-parser";
import { Document, Spectral } from "@stoplight/spectral-core";
import { Json as JsonParser } from "@stoplight/spectral-parsers";
import { oas } from "@stoplight/spectral-rulesets";
import type { OpenAPIV3_1 } from "openapi-types";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { parseBody } from "../src/api/body";
import type { AnyApiRoute } from "../src/api/define";
import { apiRoutes } from "../src/api/routes";
import { buildOpenApiDocument } from "../src/index";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const API_DOCS = fileURLToPath(new URL("../../../docs/api.md", import.meta.url));
// Virtual files live under the repository, so `openapi-fetch` resolves from its node_modules.
const DIR = `${ROOT}.openapi-clients-check/`;
const ID = "0b6c3c1e-3f0a-4d5e-9a43-8f1b2c3d4e5f";

const doc = buildOpenApiDocument();
const FIXED = { type: "fixed", name: "Launch", deadline_at: "2030-11-27T09:00:00+01:00" };

/** The smallest bodies the service accepts, for every operation that changes something. */
const MINIMAL: Record<string, { bodies: unknown[] } | "no body"> = {
  createTimer: {
    bodies: [
      FIXED,
      { type: "duration", name: "Offer", duration_seconds: 3600 },
      {
        type: "recurring",
        name: "Weekly",
        timezone: "Europe/Berlin",
        recurrence: { rrule: "FREQ=WEEKLY;BYDAY=FR", dtstart: "2030-01-04T17:00" },
      },
      { type: "personalized", name: "Trial", personalization: { source: "deadline" } },
    ],
  },
  updateTimer: { bodies: [{ name: "Renamed" }] },
  deleteTimer: "no body",
  duplicateTimer: { bodies: [{}] },
  extendTimer: { bodies: [{ seconds: 60 }] },
  archiveTimer: "no body",
  restoreTimer: "no body",
  pauseTimer: "no body",
  resumeTimer: "no body",
  publishTimer: "no body",
  resetTimer: "no body",
  createWebhookDestination: { bodies: [{ url: "https://api.example.com/hooks/tminus" }] },
  updateWebhookDestination: { bodies: [{ enabled: false }] },
  deleteWebhookDestination: "no body",
  rotateWebhookSecret: "no body",
  createWebhookRule: { bodies: [{ destination_id: ID, events: ["timer.ended"] }] },
  deleteWebhookRule: "no body",
  replayWebhookDelivery: "no body",
  createAsset: { bodies: [{ kind: "font", name: "Brand.ttf", data: "AAEAAA==" }] },
  deleteAsset: "no body",
};

const routeOf = (operationId: string): AnyApiRoute => {
  const route = apiRoutes.find((r) => r.operationId === operationId);
  if (!route) throw new Error(`no route ${operationId}`);
  return route;
};

/** What the service does with a body: the route's own parser, as the dispatcher calls it. */
const parseAsServer = (route: AnyApiRoute, json: unknown) =>
  route.body!.parse ? route.body!.parse(json) : parseBody(route.body!.schema, json);

/** One openapi-fetch call, as TypeScript source, with the route's path and required headers. */
function call(route: AnyApiRoute, body: unknown, omit: string[] = []): string {
  const params: string[] = [];
  const path = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => `${m[1]}: "${ID}"`);
  if (path.length > 0) params.push(`path: { ${path.join(", ")} }`);
  const header: string[] = [];
  if (route.headers?.includes("IdempotencyKey")) header.push(`"Idempotency-Key": "k-1"`);
  if (route.headers?.includes("IfMatch")) header.push(`"If-Match": "r1"`);
  const sent = header.filter((h) => !omit.some((name) => h.startsWith(`"${name}"`)));
  if (sent.length > 0) params.push(`header: { ${sent.join(", ")} }`);
  const options = [
    ...(params.length > 0 ? [`params: { ${params.join(", ")} }`] : []),
    ...(body === undefined ? [] : [`body: ${JSON.stringify(body)}`]),
  ];
  const args = options.length > 0 ? `, { ${options.join(", ")} }` : "";
  return `await api.${route.method}("${route.path}"${args});`;
}

const PRELUDE = `import createClient from "openapi-fetch";
import type { components, paths } from "./tminus-api";
const api = createClient<paths>({ baseUrl: "http://localhost:8787/api/v1" });
`;

function minimalCalls(): string {
  const lines = [PRELUDE];
  for (const [operationId, spec] of Object.entries(MINIMAL)) {
    const route = routeOf(operationId);
    if (spec === "no body") lines.push(call(route, undefined));
    else for (const body of spec.bodies) lines.push(call(route, body));
  }
  // The response side: fields with a default are always present in what the service sends.
  lines.push(`const { data } = await api.GET("/timers/{timer_id}", { params: { path: { timer_id: "${ID}" } } });
if (data) {
  const timezone: string = data.data.timezone;
  const metadata: Record<string, string> = data.data.metadata;
  const ended: components["schemas"]["Ended"] = data.data.ended;
  const text: string = ended.text;
  console.log(timezone, metadata, text);
}`);
  return lines.join("\n");
}

/** Each must fail to type-check, for the reason in `mentions`, as the service refuses it. */
const INVALID = {
  "missing-type": {
    source: call(routeOf("createTimer"), { name: "Launch", deadline_at: "2030-11-27T09:00:00Z" }),
    // With the fixed timer's two deadline forms TypeScript lists every missing property.
    mentions:
      /Property 'type' is missing|missing the following properties from type [^\n]*: type\b/,
  },
  "timezone-not-a-string": {
    source: call(routeOf("createTimer"), { ...FIXED, timezone: 5 }),
    mentions: /Type 'number' is not assignable to type 'string'/,
  },
  "no-idempotency-key": {
    source: call(routeOf("createTimer"), FIXED, ["Idempotency-Key"]),
    mentions: /header: \{ "Idempotency-Key": string; \}/,
  },
  "no-if-match": {
    source: call(routeOf("pauseTimer"), undefined, ["If-Match"]),
    mentions: /Property 'header' is missing/,
  },
};

/** The TypeScript block of docs/api.md's "Typed clients" section. */
function docsSnippet(): string {
  const text = readFileSync(API_DOCS, "utf8");
  const section = text.split(/^## Typed clients$/m)[1];
  const block = section && /```ts\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('docs/api.md has no ```ts block under "## Typed clients"');
  return block[1]!;
}

/** Type-checks virtual files (with the generated types) like a strict client project. */
function typeCheck(generated: string, files: Record<string, string>): Map<string, string[]> {
  const virtual = new Map<string, string>([[`${DIR}tminus-api.d.ts`, generated]]);
  for (const [name, source] of Object.entries(files)) virtual.set(`${DIR}${name}.ts`, source);
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
    types: ["node"],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile, directoryExists } = host;
  host.fileExists = (f) => virtual.has(f) || fileExists.call(host, f);
  host.readFile = (f) => virtual.get(f) ?? readFile.call(host, f);
  host.directoryExists = (d) =>
    `${d}/` === DIR || (directoryExists?.call(host, d) ?? ts.sys.directoryExists(d));
  host.getSourceFile = (f, language, ...rest) => {
    const source = virtual.get(f);
    if (source !== undefined) return ts.createSourceFile(f, source, language, true);
    return getSourceFile.call(host, f, language, ...rest);
  };
  const program = ts.createProgram(
    Object.keys(files).map((name) => `${DIR}${name}.ts`),
    options,
    host,
  );
  const out = new Map<string, string[]>();
  for (const name of [...Object.keys(files), "tminus-api"]) {
    const file = program.getSourceFile(`${DIR}${name}${name === "tminus-api" ? ".d.ts" : ".ts"}`);
    if (!file) throw new Error(`${name} was not compiled`);
    const diagnostics = [
      ...program.getSyntacticDiagnostics(file),
      ...program.getSemanticDiagnostics(file),
    ];
    out.set(
      name,
      diagnostics.map((d) => {
        const line = d.start === undefined ? 0 : file.getLineAndCharacterOfPosition(d.start).line;
        return `${name}.ts:${line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
      }),
    );
  }
  return out;
}

describe("generated client types (openapi-typescript, default options)", () => {
  it("cover every operation that changes something, with bodies the service accepts", () => {
    const changing = apiRoutes.filter((r) => r.method !== "GET").map((r) => r.operationId);
    expect(Object.keys(MINIMAL).sort()).toEqual(changing.sort());
    for (const [operationId, spec] of Object.entries(MINIMAL)) {
      const route = routeOf(operationId);
      if (spec === "no body") {
        expect(route.body, operationId).toBeUndefined();
        continue;
      }
      for (const body of spec.bodies) expect(() => parseAsServer(route, body)).not.toThrow();
    }
    // The invalid bodies of the type-check below are refused by the service as well.
    const create = routeOf("createTimer");
    expect(() => parseAsServer(create, { name: "Launch" })).toThrow(/type/);
    expect(() => parseAsServer(create, { ...FIXED, timezone: 5 })).toThrow(/timezone/);
  });

  it("accept the minimal bodies and the docs' example, and refuse invalid calls", async () => {
    const generated = astToString(await openapiTS(structuredClone(doc) as never));
    const files: Record<string, string> = {
      minimal: minimalCalls(),
      "docs-snippet": docsSnippet(),
    };
    for (const [name, { source }] of Object.entries(INVALID)) files[name] = PRELUDE + source;
    const diagnostics = typeCheck(generated, files);
    expect(diagnostics.get("tminus-api")).toEqual([]);
    expect(diagnostics.get("minimal")).toEqual([]);
    expect(diagnostics.get("docs-snippet")).toEqual([]);
    for (const [name, { mentions }] of Object.entries(INVALID)) {
      const found = diagnostics.get(name)!;
      expect(found.length, `${name} type-checks but must not`).toBeGreaterThan(0);
      expect(found.join("\n"), name).toMatch(mentions);
    }
    // openapi-typescript and a TypeScript program: seconds alone, minutes under heavy load.
  }, 180_000);
});

describe("validators and linters", () => {
  it("swagger-parser validates the document (template server and a deployment's)", async () => {
    for (const variant of [doc, buildOpenApiDocument({ baseUrl: "https://c.example.com" })]) {
      await expect(
        SwaggerParser.validate(structuredClone(variant) as OpenAPIV3_1.Document),
      ).resolves.toMatchObject({ openapi: "3.1.0", servers: variant.servers });
    }
  });

  it("Spectral's oas ruleset finds no error and no warning", async () => {
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [[oas as never, "recommended"]] });
    const results = await spectral.run(new Document(JSON.stringify(doc, null, 2), JsonParser));
    const problems = results
      .filter((r) => r.severity <= 1)
      .map((r) => `${r.code} at ${r.path.join(".")}: ${r.message}`);
    expect(problems).toEqual([]);
    // Spectral takes a few seconds alone and far more on a loaded 2-core machine.
  }, 180_000);
});
