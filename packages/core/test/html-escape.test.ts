import { escapeHtml } from "@tminus/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const decodeEntities = (s: string) =>
  s
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&amp;", "&");

describe("escapeHtml", () => {
  it("escapes the five characters that matter in content and quoted attributes", () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;",
    );
    expect(escapeHtml("&amp;")).toBe("&amp;amp;");
    expect(escapeHtml("plain text, ünïcode ✓")).toBe("plain text, ünïcode ✓");
  });

  it("leaves no markup character and can be undone exactly", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (text) => {
        const out = escapeHtml(text);
        expect(out).not.toMatch(/[<>"']/);
        // Every & starts one of the five entities.
        expect(out.replace(/&(amp|lt|gt|quot|#39);/g, "")).not.toContain("&");
        expect(decodeEntities(out)).toBe(text);
      }),
    );
  });
});
