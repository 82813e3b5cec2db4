// Every string that reaches the dashboard's HTML goes through `html`: interpolated values are
// escaped unless they are already `SafeHtml` (the output of `html` itself, or `trusted` text
// written by us). There is no other way to put text into a page.
import { escapeHtml } from "@tminus/core";

/** HTML that is already safe to send: built by `html` or marked with `trusted`. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

function render(value: unknown): string {
  if (value === null || value === undefined || value === false) return "";
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(String(value));
}

/**
 * A template tag that escapes every interpolated value (arrays are joined, null, undefined and
 * false render nothing).
 * @example
 * html`<td>${timer.name}</td>` // a name "<b>" renders as &lt;b&gt;
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return new SafeHtml(out);
}

/** Marks text written in our own source (CSS, the client script) as safe. Never user input. */
export function trusted(text: string): SafeHtml {
  return new SafeHtml(text);
}
