// Issue 39's styles, backgrounds and words in the image: each style's frames, composited from
// the atlas, against satori and resvg drawing the whole frame (the slow, obvious way), in light
// and dark, at 1x and 2x, and decoded from the GIF itself.
import { LOOK_STYLES, type LookInput } from "@tminus/core";
import { createImageRenderer, lookDrawingProblem, RenderError } from "@tminus/render";
import { describe, expect, it } from "vitest";
import { compare, decodeGif, decodePng, dhms, samePixels } from "./helpers";

const images = createImageRenderer();
const remaining = dhms(3, 4, 5, 7);

/**
 * The atlas's palette keeps exact colours when they fit (then nothing differs); a quantized one
 * (rings' anti-aliased arcs, 2x sheets: more than 256 colours) moves anti-aliased pixels: a few
 * by up to `max`, or many by a shade no eye tells apart.
 */
function expectClose(
  fast: Parameters<typeof compare>[0],
  slow: Parameters<typeof compare>[1],
  what: string,
  max = 24,
) {
  const diff = compare(fast, slow);
  expect(diff.max, what).toBeLessThanOrEqual(max);
  if (diff.max > 8) expect(diff.differing, what).toBeLessThan(0.005);
  else expect(diff.differing, what).toBeLessThan(0.05);
}

describe.each(LOOK_STYLES)("style %s", (style) => {
  it("draws frames 0, 1 and 8 as satori and resvg draw them, light and dark", async () => {
    for (const variant of ["light", "dark"] as const)
      for (const frame of [0, 1, 8]) {
        const input = { remainingSeconds: remaining, look: { style }, variant, frame };
        expectClose(
          await images.rgba(input),
          await images.reference(input),
          `${style} ${variant} ${frame}`,
        );
      }
  });

  it("decodes from the GIF as composited, and its first frame is the still PNG", async () => {
    const look = { style };
    const gif = decodeGif(await images.gif({ remainingSeconds: remaining, look, frames: 10 }));
    expect(gif.frames).toHaveLength(10);
    for (const k of [0, 3, 9])
      expect(
        samePixels(
          gif.frames[k]!,
          await images.rgba({ remainingSeconds: remaining, look, frame: k }),
        ),
        `frame ${k}`,
      ).toBe(true);
    const png = decodePng(await images.png({ remainingSeconds: remaining, look }));
    expect(samePixels(gif.frames[0]!, png)).toBe(true);
    expect(samePixels(gif.frames[0]!, gif.frames[1]!)).toBe(false);
  });

  it("draws 2x (retina) as satori does", async () => {
    const input = { remainingSeconds: dhms(0, 5, 0, 30), look: { style }, scale: 2 as const };
    const fast = await images.rgba(input);
    expect([fast.width, fast.height]).toEqual([1200, 320]);
    expectClose(fast, await images.reference(input), `${style} 2x`, 40);
  });
});

describe("rings and bars", () => {
  it.each(["circles", "bar"] as const)(
    "%s move from frame to frame beyond the digits",
    async (style) => {
      const look = { style, units: ["minutes", "seconds"] } satisfies LookInput;
      const gif = decodeGif(await images.gif({ remainingSeconds: 125, look, frames: 3 }));
      // The seconds' shape changes each second: a frame's rectangle is wider than the digits.
      const plain = decodeGif(
        await images.gif({ remainingSeconds: 125, look: { ...look, style: "plain" }, frames: 3 }),
      );
      expect(gif.info[1]!.width * gif.info[1]!.height).toBeGreaterThan(
        plain.info[1]!.width * plain.info[1]!.height,
      );
      for (const k of [1, 2])
        expectClose(
          gif.frames[k]!,
          await images.reference({ remainingSeconds: 125, look, frame: k }),
          `${style} frame ${k}`,
        );
    },
  );

  it("draws a 3-digit day count in a wider shape (its own atlas)", async () => {
    for (const style of ["circles", "boxes", "flip"] as const) {
      const input = { remainingSeconds: dhms(123, 4, 5, 6), look: { style } };
      expectClose(await images.rgba(input), await images.reference(input), `${style} 123 days`);
    }
  });

  it("hides leading zero units as the row re-centres", async () => {
    const look = { style: "circles", hide_leading_zero_units: true } satisfies LookInput;
    const input = { remainingSeconds: dhms(0, 1, 0, 1), look, frame: 3 };
    expectClose(await images.rgba(input), await images.reference(input), "hidden hour");
  });
});

describe("words in the image", () => {
  const look: LookInput = {
    style: "boxes",
    heading: { text: "Sale ends in" },
    subheading: { text: "Free shipping on every order", font: "serif" },
    button: { label: "Shop now" },
  };

  it("draws a heading, a line below and a button as satori does", async () => {
    for (const variant of ["light", "dark"] as const) {
      const input = { remainingSeconds: remaining, look, variant, height: 240 };
      expectClose(await images.rgba(input), await images.reference(input), variant);
    }
  });

  it("draws right-to-left and CJK words", async () => {
    const rtl = {
      ...look,
      locale: "ar",
      heading: { text: "ينتهي العرض خلال" },
      button: { label: "تسوق الآن" },
    };
    const cjk = { ...look, locale: "ja", heading: { text: "セール終了まで" } };
    for (const l of [rtl, cjk]) {
      const input = { remainingSeconds: remaining, look: l, height: 240 };
      expectClose(await images.rgba(input), await images.reference(input), l.locale);
    }
  });

  it("refuses words no font can draw, naming the field", async () => {
    expect(lookDrawingProblem({ heading: { text: "Sale \uE000" } })).toMatchObject({
      field: "look.heading.text",
    });
    expect(lookDrawingProblem({ button: { label: "Go \uE000" } })).toMatchObject({
      field: "look.button.label",
    });
    expect(lookDrawingProblem({ subheading: { text: "Ends 🎁 soon" } })).toBeNull();
    await expect(
      images.gif({ remainingSeconds: 9, look: { subheading: { text: "\uE001" } } }),
    ).rejects.toThrow(RenderError);
  });
});

describe("backgrounds", () => {
  it("draws a gradient behind the panel, the row on the look's colour", async () => {
    const look: LookInput = {
      style: "rounded",
      background: { type: "gradient", from: "#FF0080", to: "#7928CA", angle: 90 },
      heading: { text: "Black Friday", color: "#FFFFFF" },
    };
    const input = { remainingSeconds: remaining, look, height: 200 };
    const fast = await images.rgba(input);
    // The corners are the gradient's ends, the centre of the row the panel's white.
    const at = (x: number, y: number) => [
      ...fast.rgba.subarray((y * 600 + x) * 4, (y * 600 + x) * 4 + 3),
    ];
    expect(at(1, 1)[0]).toBeGreaterThan(200);
    expect(at(598, 1)[2]).toBeGreaterThan(150);
    const slow = await images.reference(input);
    const diff = compare(fast, slow);
    // A gradient has more colours than a GIF palette: the quantizer picks 256, once per look.
    expect(diff.differing).toBeLessThan(0.6);
    const gif = decodeGif(await images.gif({ ...input, frames: 2 }));
    expect(samePixels(gif.frames[0]!, fast)).toBe(true);
  });

  it("refuses a background on a transparent look", async () => {
    await expect(
      createImageRenderer().gif({
        remainingSeconds: 5,
        look: {
          transparent: true,
          background: { type: "gradient", from: "#000000", to: "#FFFFFF" },
        },
      }),
    ).rejects.toThrow(/look.background/);
  });
});
