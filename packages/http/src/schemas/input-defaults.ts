// A JSON Schema object (registry.ts names the same type; not imported, to keep imports one-way).
type JsonSchema = Record<string, unknown>;

// Keywords whose value is one subschema, a map of subschemas or a list of them (draft 2020-12).
const ONE = [
  "items",
  "additionalProperties",
  "propertyNames",
  "not",
  "contains",
  "if",
  "then",
  "else",
  "unevaluatedItems",
  "unevaluatedProperties",
];
const MAP = ["properties", "patternProperties", "$defs", "dependentSchemas"];
const LIST = ["allOf", "anyOf", "oneOf", "prefixItems"];

const isSchema = (value: unknown): value is JsonSchema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Turns every `default` of a request schema into text of its description, in place. Code
 * generators read `default` as "always present" (openapi-typescript makes such a property
 * required unless told otherwise), which is true of what the service sends and false of what
 * a client may send: on the request side the field is optional and the service fills it in.
 * The value stays documented, word for word, and the response side keeps the keyword.
 */
export function describeDefaults(schema: JsonSchema): JsonSchema {
  if ("default" in schema) {
    const note = `Default when omitted: \`${JSON.stringify(schema.default)}\`.`;
    const text = typeof schema.description === "string" ? schema.description : "";
    schema.description = text === "" ? note : `${text} ${note}`;
    delete schema.default;
  }
  for (const key of ONE) {
    if (isSchema(schema[key])) describeDefaults(schema[key]);
  }
  for (const key of MAP) {
    const map = schema[key];
    if (!isSchema(map)) continue;
    for (const sub of Object.values(map)) if (isSchema(sub)) describeDefaults(sub);
  }
  for (const key of LIST) {
    const list = schema[key];
    if (!Array.isArray(list)) continue;
    for (const sub of list) if (isSchema(sub)) describeDefaults(sub);
  }
  return schema;
}
