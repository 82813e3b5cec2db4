// Validates responses against the OpenAPI document built from the source, so every black-box
// test doubles as a contract test: a field, status, code or header the document does not
// describe fails the test that received it.
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { buildOpenApiDocument } from "../src/index";

const DOC_ID = "tminus-openapi";
const PREFIX = "/api/v1";
const GENERIC_ERROR = "#/components/schemas/ErrorResponse";

type Json = Record<string, unknown>;

interface Operation {
  responses: Record<string, Json>;
}

/** Checks one response; returns a readable complaint, or null when it matches. */
export type ResponseValidator = (input: {
  method: string;
  path: string;
  status: number;
  headers: Headers;
  text: string;
}) => string | null;

const escapePointer = (segment: string) => segment.replaceAll("~", "~0").replaceAll("/", "~1");

/** Builds the validator over a freshly generated document (never docs/openapi.json). */
export function createResponseValidator(): ResponseValidator {
  const doc = buildOpenApiDocument() as Json & {
    paths: Record<string, Record<string, Operation>>;
    components: { responses: Record<string, Json>; headers: Record<string, Json> };
  };
  // The whole document is registered as one schema resource, so every "#/components/..."
  // reference inside it resolves; unknown OpenAPI keywords are ignored (strict off).
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: DOC_ID });
  const compiled = new Map<string, ValidateFunction>();
  const validatorAt = (pointer: string) => {
    let fn = compiled.get(pointer);
    if (!fn) {
      fn = ajv.compile({ $ref: `${DOC_ID}${pointer}` });
      compiled.set(pointer, fn);
    }
    return fn;
  };
  // Path items with servers of their own (the health probes) live at the service's root;
  // the others under /api/v1.
  const atRoot = (template: string) => "servers" in doc.paths[template]!;
  const templates = Object.keys(doc.paths)
    .filter((template) => !atRoot(template))
    .map((template) => ({ template, segments: template.split("/").filter(Boolean) }));
  const deref = <T>(value: Json, kind: "responses" | "headers"): [T, string | null] => {
    const ref = value.$ref as string | undefined;
    if (!ref) return [value as T, null];
    const name = ref.slice(`#/components/${kind}/`.length);
    return [doc.components[kind][name] as T, ref];
  };

  return ({ method, path, status, headers, text }) => {
    const where = `${method} ${path} answered ${status}`;
    const relative = path.split("?")[0]!;
    // The document itself is not one of the operations it describes (openapi.test.ts checks it).
    if (relative === "/openapi.json" && method === "GET" && status === 200) return null;
    const op = findOperation(relative, method);
    if (!op) {
      // Unknown routes (and known paths with another method): the generic error envelope.
      return checkBody(validatorAt(GENERIC_ERROR), GENERIC_ERROR, text, where);
    }
    const raw = op.operation.responses[String(status)] ?? op.operation.responses.default;
    if (!raw) {
      return `${where}, a status the OpenAPI document does not list for ${method} ${op.template} (documented: ${Object.keys(op.operation.responses).join(", ")})\nbody: ${text.slice(0, 500)}`;
    }
    const [response, ref] = deref<Json & { headers?: Record<string, Json>; content?: Json }>(
      raw,
      "responses",
    );
    const base =
      ref?.slice(1) ??
      `/paths/${escapePointer(op.template)}/${method.toLowerCase()}/responses/${status}`;
    for (const [name, headerRaw] of Object.entries(response.headers ?? {})) {
      const [header, headerRef] = deref<Json & { required?: boolean; schema?: Json }>(
        headerRaw,
        "headers",
      );
      const value = headers.get(name);
      if (value === null) {
        if (header.required) return `${where} without the required ${name} header`;
        continue;
      }
      const type = (header.schema as { type?: string } | undefined)?.type;
      const parsed = type === "integer" && /^-?\d+$/.test(value) ? Number(value) : value;
      const pointer = `${headerRef ? headerRef.slice(1) : `${base}/headers/${escapePointer(name)}`}/schema`;
      const fn = validatorAt(`#${pointer}`);
      if (!fn(parsed))
        return `${where} with header ${name}: ${value} (${ajv.errorsText(fn.errors)})`;
    }
    if (!response.content) {
      return text === "" ? null : `${where} with a body the document does not describe`;
    }
    // A CSV answer: the document must list text/csv, and its header line must be the one
    // the document shows (the columns docs/analytics.md describes).
    if (headers.get("content-type")?.startsWith("text/csv")) {
      const csv = (response.content as Record<string, { example?: string }>)["text/csv"];
      if (!csv) return `${where} with text/csv, which the document does not list`;
      const want = csv.example?.split("\r\n")[0];
      const got = text.split("\r\n")[0];
      return got === want ? null : `${where} with CSV columns ${got}, documented: ${want}`;
    }
    const pointer = `#${base}/content/application~1json/schema`;
    return checkBody(validatorAt(pointer), pointer, text, where);
  };

  function findOperation(relative: string, method: string) {
    if (doc.paths[relative] && atRoot(relative)) {
      const operation = doc.paths[relative]![method.toLowerCase()];
      return operation ? { template: relative, operation } : null;
    }
    if (relative !== PREFIX && !relative.startsWith(`${PREFIX}/`)) return null;
    const segments = relative.slice(PREFIX.length).split("/").filter(Boolean);
    for (const { template, segments: want } of templates) {
      if (want.length !== segments.length) continue;
      if (!want.every((w, i) => w.startsWith("{") || w === segments[i])) continue;
      const operation = doc.paths[template]![method.toLowerCase()];
      if (operation) return { template, operation };
    }
    return null;
  }

  function checkBody(fn: ValidateFunction, pointer: string, text: string, where: string) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return `${where} with a body that is not JSON: ${text.slice(0, 200)}`;
    }
    if (fn(body)) return null;
    const errors = (fn.errors ?? [])
      .slice(0, 8)
      .map((e) => `  ${e.instancePath || "(body)"} ${e.message} ${JSON.stringify(e.params)}`)
      .join("\n");
    return `${where}, which does not match the OpenAPI document (${pointer}):\n${errors}\nbody: ${text.slice(0, 800)}`;
  }
}
