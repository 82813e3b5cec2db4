import { IMAGE_SIZE, snapHeight, snapWidth } from "@tminus/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

// docs/render.md "Sizes snap": the nearest multiple of 20 CSS px, halfway rounding up,
// within 100..1200 (widths) and 40..600 (given heights).
describe("image sizes snap", () => {
  it("rounds to the nearest multiple of 20, halfway up", () => {
    expect(snapWidth(590)).toBe(600);
    expect(snapWidth(589)).toBe(580);
    expect(snapWidth(600)).toBe(600);
    expect(snapWidth(609.99)).toBe(600);
    expect(snapWidth(610)).toBe(620);
    expect(snapHeight(129)).toBe(120);
    expect(snapHeight(130)).toBe(140);
    expect(snapHeight(140)).toBe(140);
  });

  it("clamps widths to 100..1200 and heights to 40..600", () => {
    expect(snapWidth(0)).toBe(100);
    expect(snapWidth(-500)).toBe(100);
    expect(snapWidth(100)).toBe(100);
    expect(snapWidth(1200)).toBe(1200);
    expect(snapWidth(1211)).toBe(1200);
    expect(snapWidth(5000)).toBe(1200);
    expect(snapHeight(0)).toBe(40);
    expect(snapHeight(40)).toBe(40);
    expect(snapHeight(600)).toBe(600);
    expect(snapHeight(611)).toBe(600);
    expect(snapHeight(5000)).toBe(600);
    expect(IMAGE_SIZE).toMatchObject({
      minWidth: 100,
      maxWidth: 1200,
      minHeight: 40,
      maxHeight: 600,
      step: 20,
    });
  });

  it("gives 56 widths and 29 heights, each a fixed point, none farther than 10 px", () => {
    const widths = new Set<number>();
    for (let w = 0; w <= 1400; w++) widths.add(snapWidth(w));
    expect(widths.size).toBe(56);
    const heights = new Set<number>();
    for (let h = 0; h <= 800; h++) heights.add(snapHeight(h));
    expect(heights.size).toBe(29);
    fc.assert(
      fc.property(fc.double({ min: 100, max: 1200, noNaN: true }), (w) => {
        const s = snapWidth(w);
        return s % 20 === 0 && Math.abs(s - w) <= 10 && snapWidth(s) === s;
      }),
      { numRuns: 200, seed: 20261124, verbose: true },
    );
  });
});
