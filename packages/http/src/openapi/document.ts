import type { z } from "zod";
import type { CsvColumn } from "../api/_analytics-csv";
import type { AnyApiRoute } from "../api/define";
import { apiRoutes } from "../api/routes";
import { schemaComponents, schemaNameOf, schemaRefOf } from "../schemas/registry";
import { successExamples } from "../vocabulary/examples";
import {
  componentOf,
  HEADER_COMPONENTS,
  PARAMETER_COMPONENTS,
  parameterDoc,
  SUCCESS_HEADERS,
} from "../vocabulary/parameter-components";
import { parameterMetaOf } from "../vocabulary/parameters";
import { TAGS } from "../vocabulary/tags";
import { webhookEventDocs } from "../vocabulary/webhook-events";
import { API_DESCRIPTION } from "./description";
import { AUTH_ERRORS, type ErrorCase, errorResponses } from "./error-responses";
import { healthPaths } from "./health";

/** Options of {@link buildOpenApiDocument}. */
export interface OpenApiOptions {
  /**
   * The service's public base URL (config `base_url`); the server entry becomes
   * `<baseUrl>/api/v1`. Without it the server URL is a template with a `base_url` variable.
   */
  baseUrl?: string;
}

const SECURITY_SCHEME = "apiKey";
const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/**
 * Builds the OpenAPI 3.1 document of the whole /api/v1 from the route table (each route
 * carries its own documentation) and the zod schemas. Deterministic: the same code gives byte-identical JSON, which is
 * how docs/openapi.json is checked against the source.
 * @example
 * const doc = buildOpenApiDocument({ baseUrl: "https://countdown.example.com" });
 * writeFileSync("openapi.json", JSON.stringify(doc, null, 2));
 */
export function buildOpenApiDocument(options: OpenApiOptions = {}): Record<string, unknown> {
  const examples = successExamples();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of apiRoutes) {
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = operation(route, examples);
  }
  const responses = hoistSharedResponses(paths);

  return {
    openapi: "3.1.0",
    info: {
      title: "tminus API",
      version: "1.0.0",
      summary: "Countdown timers for pages, embeds and email, over HTTP.",
      description: API_DESCRIPTION,
      // A deployment's users reach its operator; the document cannot know more than that.
      contact: { name: "The operator of this tminus deployment" },
      license: { name: "MIT", identifier: "MIT" },
    },
    jsonSchemaDialect: "https://spec.openapis.org/oas/3.1/dialect/base",
    servers: [server(options.baseUrl)],
    security: [{ [SECURITY_SCHEME]: [] }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths: { ...sortPaths(paths), ...healthPaths(server(options.baseUrl, "")) },
    // The events sent to webhook destinations (decisions.md, Webhooks).
    webhooks: webhookEventDocs(),
    components: {
      schemas: schemaComponents(),
      responses,
      examples: Object.fromEntries(
        Object.entries(examples).map(([name, value]) => [name, { value }]),
      ),
      headers: HEADER_COMPONENTS,
      parameters: PARAMETER_COMPONENTS,
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "svc_test_… or svc_live_… API key",
          description:
            "`Authorization: Bearer <API_KEY>`, exactly one space. The key decides the account and the environment. Each operation names the key scope it needs in `x-scopes` and in its description (a key issued with `*` has them all).",
        },
      },
    },
  };
}

/** The server entry: the API under `/api/v1`, or (suffix "") the service's root. */
function server(baseUrl: string | undefined, suffix = "/api/v1") {
  if (baseUrl !== undefined) {
    return { url: `${baseUrl.replace(/\/+$/, "")}${suffix}`, description: "This service." };
  }
  // The variable has no description of its own: swagger-parser (and orval, which uses it)
  // rejects one there, so the server's description says what `base_url` is.
  return {
    url: `{base_url}${suffix}`,
    description:
      "Your tminus deployment: `base_url` is its public base URL (config `base_url`), without a trailing slash.",
    variables: { base_url: { default: "http://localhost:8787" } },
  };
}

function ref(kind: "parameters" | "headers", name: string) {
  return { $ref: `#/components/${kind}/${name}` };
}

function operation(route: AnyApiRoute, examples: Record<string, unknown>) {
  const parameters: unknown[] = [];
  const errors: ErrorCase[] = [...AUTH_ERRORS];
  // Path parameters, then headers, then the query (a list's `limit` and `cursor` first).
  const documented = (where: "path" | "query", schema?: z.ZodObject) => {
    for (const [name, field] of Object.entries(schema?.shape ?? {})) {
      const component = componentOf(field);
      parameters.push(component ? ref("parameters", component) : parameterDoc(name, where, field));
      errors.push(...(parameterMetaOf(field)?.errors ?? []));
    }
  };
  documented("path", route.params);
  for (const header of route.headers ?? []) parameters.push(ref("parameters", header));
  documented("query", route.query);
  errors.push(...(route.errors ?? []));

  const headers: Record<string, unknown> = {};
  for (const h of [...SUCCESS_HEADERS, ...(route.success.headers ?? [])]) {
    headers[h] = ref("headers", h);
  }
  const successName = schemaNameOf(route.success.schema);
  const example = successName !== undefined && successName in examples ? successName : undefined;
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: `${route.description}\n\n${route.scope === null ? "Scope: none; every valid key may call it." : `Scope: \`${route.scope}\`.`}`,
    tags: [route.tag],
    // The document-wide bearer requirement applies. Scopes are not listed in a `security`
    // requirement: OpenAPI gives them meaning for OAuth2 and OpenID Connect only, and linters
    // flag them on an http scheme (Spectral's oas3-operation-security-defined).
    "x-scopes": route.scope === null ? [] : [route.scope],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.body
      ? {
          requestBody: {
            required: route.body.required,
            description: route.body.description,
            content: {
              "application/json": {
                schema: schemaRefOf(route.body.schema),
                ...(route.body.example === undefined ? {} : { example: route.body.example }),
              },
            },
          },
        }
      : {}),
    responses: {
      [String(route.success.status)]: {
        description: route.success.description,
        headers,
        content: {
          "application/json": {
            schema: schemaRefOf(route.success.schema),
            ...(example === undefined
              ? {}
              : { examples: { [example]: { $ref: `#/components/examples/${example}` } } }),
          },
          ...(route.success.csv ? { "text/csv": csvContent(route.success.csv) } : {}),
        },
      },
      ...errorResponses(errors, true),
    },
  };
}

/** A `text/csv` answer: a string whose header line names `columns` (docs/analytics.md). */
function csvContent(columns: readonly CsvColumn[]) {
  const header = columns.map((c) => c.name).join(",");
  return {
    schema: {
      type: "string",
      description: `RFC 4180 CSV with a header line, CRLF line ends, every row of the range: ${columns.map((c) => `\`${c.name}\``).join(", ")}. An empty cell is a null; a text starting with = + - @ is prefixed with ' (spreadsheets would run it as a formula). Each column: docs/analytics.md.`,
    },
    example: `${header}\r\n`,
  };
}

/**
 * Moves error responses that several operations share verbatim (401, 403, 429, 500 and the
 * common 400/404 sets) to `components.responses`, named after their codes: the document stays
 * readable and a fraction of the size, with no change in meaning.
 */
function hoistSharedResponses(paths: Record<string, Record<string, unknown>>) {
  type Op = { responses: Record<string, unknown> };
  const ops = Object.values(paths).flatMap((methods) => Object.values(methods) as Op[]);
  const uses = new Map<string, number>();
  for (const op of ops) {
    for (const [status, response] of Object.entries(op.responses)) {
      if (status.startsWith("2")) continue;
      const key = JSON.stringify(response);
      uses.set(key, (uses.get(key) ?? 0) + 1);
    }
  }
  const names = new Map<string, string>();
  const components: Record<string, unknown> = {};
  for (const op of ops) {
    for (const [status, response] of Object.entries(op.responses)) {
      const key = JSON.stringify(response);
      if (status.startsWith("2") || (uses.get(key) ?? 0) < 2) continue;
      let name = names.get(key);
      if (!name) {
        name = uniqueName(responseName(status, response), components);
        names.set(key, name);
        components[name] = response;
      }
      op.responses[status] = { $ref: `#/components/responses/${name}` };
    }
  }
  return Object.fromEntries(Object.entries(components).sort(([a], [b]) => (a < b ? -1 : 1)));
}

// "401 unauthorized/invalid_api_key" becomes "Unauthorized401" style names from the codes.
function responseName(status: string, response: unknown): string {
  const codes = (
    response as {
      content: {
        "application/json": {
          schema: { properties: { error: { properties: { code: { enum: string[] } } } } };
        };
      };
    }
  ).content["application/json"].schema.properties.error.properties.code.enum;
  const pascal = (code: string) =>
    code.replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase());
  return `${codes.map(pascal).join("Or")}${status}`;
}

function uniqueName(base: string, taken: Record<string, unknown>): string {
  let name = base;
  for (let i = 2; name in taken; i++) name = `${base}_${i}`;
  return name;
}

// Paths in a stable, readable order: by path, so a resource's operations stay together.
function sortPaths(paths: Record<string, Record<string, unknown>>) {
  const out: Record<string, Record<string, unknown>> = {};
  for (const path of Object.keys(paths).sort()) {
    const methods = paths[path]!;
    out[path] = Object.fromEntries(
      HTTP_METHODS.filter((m) => m in methods).map((m) => [m, methods[m]]),
    );
  }
  return out;
}
