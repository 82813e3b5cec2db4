// The font stacks are keyed by the subsets a text needs, and texts come from users (labels, an
// ended text in any script): past FONT_STACKS_MAX distinct combinations the map starts over
// instead of growing. Real font packages, real stacks.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { FONT_STACKS_MAX, fontStack, fontStacksKept } from "../src/fonts";

const require = createRequire(import.meta.url);

/** One character of each numbered slice of the Japanese font, each in a subset of its own. */
function oneCharPerSlice(): string[] {
  const unicode = JSON.parse(
    readFileSync(require.resolve("@fontsource/noto-sans-jp/unicode.json"), "utf8"),
  ) as Record<string, string>;
  return Object.entries(unicode)
    .filter(([name]) => /^\[\d+\]$/.test(name))
    .map(([, range]) => {
      const first = /U\+([0-9a-f]+)/i.exec(range)![1]!;
      return String.fromCodePoint(Number.parseInt(first, 16));
    });
}

describe("font stacks", () => {
  it(`stay at most ${FONT_STACKS_MAX} however many subset combinations texts need`, () => {
    const chars = oneCharPerSlice();
    const families = new Set<string>();
    let most = 0;
    outer: for (let i = 0; i < chars.length; i++) {
      for (let j = i + 1; j < chars.length; j++) {
        families.add(fontStack("sans", `1 ${chars[i]}${chars[j]}`, "ja").family);
        most = Math.max(most, fontStacksKept());
        if (families.size > FONT_STACKS_MAX + 200) break outer;
      }
    }
    // More distinct stacks were made than the map may hold, and it never held more.
    expect(families.size).toBeGreaterThan(FONT_STACKS_MAX);
    expect(most).toBeLessThanOrEqual(FONT_STACKS_MAX);
    expect(fontStacksKept()).toBeGreaterThan(0);
  });
});
