// Every frame of every style's GIF, decoded by omggif, against the frame composited directly
// (images.rgba): however a frame is encoded (cropped to the changed pixels, the unchanged ones
// left transparent), the picture must not change. And issue 39's size bound at the default size.
import { LOOK_STYLES, type LookInput } from "@tminus/core";
import { createImageRenderer } from "@tminus/render";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeGif, dhms, samePixels } from "./helpers";

const images = createImageRenderer();
// 120 frames drawn twice per case: minutes of CPU on a loaded shared machine.
const SLOW = 180_000;

/** The index of the first frame of the GIF that differs from the frame drawn directly, or -1. */
async function firstWrongFrame(input: {
  remainingSeconds: number;
  look: LookInput;
  variant: "light" | "dark";
  frames: number;
  width?: number;
  height?: number;
}): Promise<number> {
  const gif = decodeGif(await images.gif(input));
  expect(gif.frames).toHaveLength(Math.min(input.frames, input.remainingSeconds + 1));
  for (let k = 0; k < gif.frames.length; k++) {
    const still = await images.rgba({ ...input, frame: k });
    if (!samePixels(gif.frames[k]!, still)) return k;
  }
  return -1;
}

describe.each(LOOK_STYLES)("style %s, 600x160, 60 frames", (style) => {
  it(
    "decodes every frame as drawn directly, light and dark",
    async () => {
      for (const variant of ["light", "dark"] as const)
        expect(
          await firstWrongFrame({
            remainingSeconds: dhms(3, 4, 5, 7),
            look: { style },
            variant,
            frames: 60,
          }),
          variant,
        ).toBe(-1);
    },
    SLOW,
  );

  it("is at most 60 KB", async () => {
    const bytes = await images.gif({
      remainingSeconds: dhms(3, 4, 5, 7) + 7 * 7_919,
      look: { style },
    });
    expect(bytes.length).toBeLessThanOrEqual(60 * 1024);
  });
});

describe("any look's GIF", () => {
  it(
    "decodes every frame as drawn directly",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            style: fc.constantFrom(...LOOK_STYLES),
            variant: fc.constantFrom("light" as const, "dark" as const),
            labels: fc.constantFrom<LookInput>(
              {},
              { show_labels: false },
              { labels: { days: "d", hours: "hrs", minutes: "Minuten", seconds: "s" } },
              { units: ["hours", "minutes", "seconds"], locale: "de" },
            ),
            size: fc.constantFrom({}, { width: 400, height: 120 }, { width: 800 }),
            remainingSeconds: fc.integer({ min: 0, max: 30 * 86_400 }),
            frames: fc.integer({ min: 2, max: 60 }),
          }),
          async ({ style, variant, labels, size, remainingSeconds, frames }) => {
            const look = { style, ...labels };
            expect(
              await firstWrongFrame({ look, variant, remainingSeconds, frames, ...size }),
            ).toBe(-1);
          },
        ),
        { numRuns: 25 },
      );
    },
    SLOW,
  );
});
