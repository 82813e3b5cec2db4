// Every user-supplied string reaches HTML through escapeHtml (core's, shared with the
// dashboard) or jsonForScript.

export { escapeHtml } from "@tminus/core";

/**
 * JSON for a `<script type="application/json">` block. `<` is escaped so no
 * string can close the element (`</script>`) or open a comment (`<!--`), and
 * U+2028/U+2029 so the text is also a valid JavaScript literal.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** The URL when it is absolute https (core only stores such), else null: no javascript: ever. */
export function safeHttpsUrl(url: string | null | undefined): string | null {
  return safeUrl(url, ["https:"]);
}

/** The URL when it is absolute http or https (for links the viewer follows), else null. */
export function safeWebUrl(url: string | null | undefined): string | null {
  return safeUrl(url, ["http:", "https:"]);
}

function safeUrl(url: string | null | undefined, protocols: readonly string[]): string | null {
  if (typeof url !== "string") return null;
  try {
    return protocols.includes(new URL(url).protocol) ? url : null;
  } catch {
    return null;
  }
}
