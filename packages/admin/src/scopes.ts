/**
 * Key scopes. The specification leaves their names open; a key holds `*` (everything its plan
 * allows) unless it was issued with a narrower list. A route outside the key's scopes answers
 * `403 forbidden`.
 */
export const SCOPES = [
  // Grants nothing beyond any valid key (GET /usage needs no scope); kept so that keys and
  // scripts that name it keep working.
  "usage:read",
  "timers:read",
  "timers:write",
  "request_log:read",
  "webhooks:read",
  "webhooks:write",
  "assets:read",
  "assets:write",
] as const;

/** One scope name, or `*` for all. */
export type Scope = (typeof SCOPES)[number] | "*";

/** Whether a key's scopes include `needed`. */
export function hasScope(granted: readonly string[], needed: Scope): boolean {
  return granted.includes("*") || granted.includes(needed);
}

/** Validates scope names given by an operator; throws on an unknown one. */
export function parseScopes(input: readonly string[] | undefined): string[] {
  if (!input || input.length === 0) return ["*"];
  for (const s of input) {
    if (s !== "*" && !(SCOPES as readonly string[]).includes(s)) {
      throw new Error(`unknown scope "${s}" (known: *, ${SCOPES.join(", ")})`);
    }
  }
  return [...new Set(input)];
}
