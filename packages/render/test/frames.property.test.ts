import { type LookInput, splitRemaining } from "@tminus/core";
import { createImageRenderer } from "@tminus/render";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeGif, samePixels } from "./helpers";

const images = createImageRenderer();

// A few looks that lay out differently: all units, hours as largest (unbounded
// hours), unpadded minutes and seconds without labels.
const LOOKS: LookInput[] = [
  {},
  { units: ["hours", "minutes", "seconds"], font: "mono", locale: "pl" },
  { units: ["minutes", "seconds"], pad: false, show_labels: false, font: "serif" },
];

function largestDigits(look: LookInput, total: number): number {
  if (total <= 0) return 0;
  const units = look.units;
  const largest = units ? (units[0] === "seconds" ? "minutes" : units[0]) : "days";
  return String(splitRemaining(total, { largestUnit: largest, units })[0]!.value).length;
}

describe("frame k of any GIF", () => {
  it("shows exactly the still of the remaining time minus k seconds", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 400 * 86_400 }),
        fc.integer({ min: 0, max: 59 }),
        fc.integer({ min: 0, max: LOOKS.length - 1 }),
        async (remaining, k, which) => {
          const look = LOOKS[which]!;
          // A largest unit that loses a digit mid-animation keeps the first frame's
          // slots in the GIF (no jumping), so its still would be laid out differently.
          fc.pre(
            largestDigits(look, remaining) === largestDigits(look, remaining - k) || remaining <= k,
          );
          const gif = decodeGif(
            await images.gif({ remainingSeconds: remaining, frames: k + 1, look }),
          );
          // The animation stops on its first ended frame.
          const shown = Math.min(k, remaining);
          expect(gif.frames).toHaveLength(shown + 1);
          const still = await images.rgba({ remainingSeconds: remaining - shown, look });
          expect(samePixels(gif.frames[shown]!, still)).toBe(true);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("is the same picture with no frame cache, every frame encoded afresh", async () => {
    // Without a cache every frame is a miss: the encoder reuses what it drew for the frame
    // before (animate.ts) and cuts each frame to its changed pixels (delta.ts).
    const uncached = createImageRenderer({ frameBytes: 0 });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 40 * 86_400 }),
        fc.constantFrom<LookInput>(
          {},
          { style: "circles" },
          { style: "bar" },
          { style: "flip" },
          { separator: "🔥" },
        ),
        async (remaining, look) => {
          const input = { remainingSeconds: remaining, frames: 12, look };
          const a = decodeGif(await uncached.gif(input));
          const b = decodeGif(await images.gif(input));
          expect(a.frames).toHaveLength(b.frames.length);
          for (let k = 0; k < a.frames.length; k++) {
            const still = await images.rgba({ ...input, frame: k });
            expect(samePixels(a.frames[k]!, still), `frame ${k}`).toBe(true);
          }
        },
      ),
      { numRuns: 20 },
    );
  }, 120_000);
});
