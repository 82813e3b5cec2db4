// Looks arrive from stored timers (complete) or from callers (partial); both are
// checked with core's own schema, so images and pages accept exactly what the API does.
import { fieldPath, type Look, type LookInput, lookSchema } from "@tminus/core";
import { createLru } from "./_lru";
import { invalid } from "./errors";

// Parsing a look costs more than compositing a frame; the same look comes back
// for every recipient of a campaign, so the last few are remembered by their JSON.
const looks = createLru<string, { look: Look; key: string }>(256);

/**
 * The complete look and its canonical JSON (equal looks, equal keys), or a
 * RenderError naming the field, like "look.text_color must be a colour ...".
 */
export function resolveLookOption(input: Look | LookInput | undefined): {
  look: Look;
  key: string;
} {
  let json: string;
  try {
    json = JSON.stringify(input ?? {});
  } catch {
    throw invalid("look", "must be a JSON object");
  }
  const hit = looks.get(json);
  if (hit) return hit;
  const parsed = lookSchema.safeParse(input ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalid(fieldPath(["look", ...issue.path]), describeIssue(issue));
  }
  const found = { look: parsed.data, key: JSON.stringify(parsed.data) };
  looks.set(json, found);
  return found;
}

/** Core's own messages are "must ..." predicates; zod's built-in ones are reworded. */
function describeIssue(issue: {
  code: string;
  message: string;
  keys?: string[];
  values?: unknown[];
  minimum?: unknown;
  maximum?: unknown;
  origin?: string;
}): string {
  const unit = issue.origin === "string" ? " characters" : issue.origin === "array" ? " items" : "";
  switch (issue.code) {
    case "unrecognized_keys":
      return `has unknown field ${issue.keys?.join(", ")}`;
    case "invalid_value":
      return `must be one of ${issue.values?.map(String).join(", ")}`;
    case "too_big":
      return `must be at most ${String(issue.maximum)}${unit}`;
    case "too_small":
      return `must be at least ${String(issue.minimum)}${unit}`;
    case "invalid_type":
      return `has the wrong type: ${issue.message.replace(/^Invalid input: /, "")}`;
    default:
      return issue.message.startsWith("must") ? issue.message : `is invalid: ${issue.message}`;
  }
}
