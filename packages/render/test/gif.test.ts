import { lookSchema } from "@tminus/core";
import { createImageRenderer, RenderError } from "@tminus/render";
import { describe, expect, it } from "vitest";
import { lookText } from "../src/content";
import { compare, decodeGif, decodePng, dhms, samePixels } from "./helpers";

// One renderer for the file: its atlas cache is what makes the later tests fast.
const images = createImageRenderer();
const remaining = dhms(3, 4, 5, 7);

describe("animated GIF", () => {
  it("has 60 one-second frames on a 600 px wide logical screen, looping forever", async () => {
    const gif = decodeGif(await images.gif({ remainingSeconds: remaining }));
    expect(gif.width).toBe(600);
    expect(gif.height).toBe(160);
    expect(gif.frames).toHaveLength(60);
    expect(gif.info.every((f) => f.delay === 100)).toBe(true);
    expect(gif.loopCount).toBe(0);
    // Frame 0 covers everything; later frames only what changed, left in place.
    expect(gif.info[0]).toMatchObject({ x: 0, y: 0, width: 600, height: 160 });
    for (const f of gif.info.slice(1)) {
      expect(f.disposal).toBe(1);
      expect(f.width * f.height).toBeLessThan((600 * 160) / 4);
    }
    expect(gif.info.every((f) => !f.has_local_palette && !f.interlaced)).toBe(true);
  });

  it("frame k shows the time k seconds later, exactly as that frame composited directly", async () => {
    const gif = decodeGif(await images.gif({ remainingSeconds: remaining }));
    for (const k of [0, 1, 7, 8, 9, 30, 59]) {
      const direct = await images.rgba({ remainingSeconds: remaining, frame: k });
      expect(samePixels(gif.frames[k]!, direct), `frame ${k}`).toBe(true);
      // The same time rendered as a still of its own: the layout does not move.
      const still = await images.rgba({ remainingSeconds: remaining - k });
      expect(samePixels(gif.frames[k]!, still), `still at remaining - ${k}`).toBe(true);
    }
    // Consecutive frames really differ (the seconds tick).
    expect(samePixels(gif.frames[0]!, gif.frames[1]!)).toBe(false);
  });

  it("looks like satori and resvg drawing the whole frame (the slow path)", async () => {
    for (const input of [
      { remainingSeconds: remaining, frame: 0 },
      { remainingSeconds: remaining, frame: 8 }, // 07 s to 59 s: minutes change too
      { remainingSeconds: dhms(0, 1, 0, 1), look: { font: "serif", theme: "dark" }, frame: 1 },
      { remainingSeconds: 42, look: { font: "mono", locale: "ru", panel: "plain" } },
    ] as const) {
      const fast = await images.rgba(input);
      const slow = await images.reference(input);
      const diff = compare(fast, slow);
      // Exact palettes keep this at zero; a quantized palette may move a few anti-aliased pixels.
      expect(diff.max, JSON.stringify(input)).toBeLessThanOrEqual(24);
      expect(diff.differing, JSON.stringify(input)).toBeLessThan(0.005);
    }
  });

  it("decodes to what satori and resvg draw for the same frames", async () => {
    const gif = decodeGif(await images.gif({ remainingSeconds: remaining, frames: 10 }));
    for (const k of [3, 9]) {
      const diff = compare(
        gif.frames[k]!,
        await images.reference({ remainingSeconds: remaining, frame: k }),
      );
      expect(diff.max, `frame ${k}`).toBeLessThanOrEqual(24);
      expect(diff.differing, `frame ${k}`).toBeLessThan(0.005);
    }
  });

  it("shows the ended look after the deadline and stops there instead of looping", async () => {
    const gif = decodeGif(await images.gif({ remainingSeconds: 3, ended: { text: "Sale over" } }));
    // 3, 2, 1, then the ended frame, and no more.
    expect(gif.frames).toHaveLength(4);
    expect(gif.loopCount).toBeNull();
    const ended = await images.rgba({ remainingSeconds: 0, ended: { text: "Sale over" } });
    expect(samePixels(gif.frames[3]!, ended)).toBe(true);
    expect(samePixels(gif.frames[2]!, ended)).toBe(false);
    const already = decodeGif(
      await images.gif({ remainingSeconds: 0, ended: { text: "Sale over" } }),
    );
    expect(already.frames).toHaveLength(1);
    expect(samePixels(already.frames[0]!, ended)).toBe(true);
  });

  it("renders a paused timer as one still frame", async () => {
    const gif = decodeGif(await images.gif({ remainingSeconds: 500, running: false }));
    expect(gif.frames).toHaveLength(1);
  });

  it("takes 1 to 60 frames", async () => {
    expect(decodeGif(await images.gif({ remainingSeconds: 500, frames: 1 })).frames).toHaveLength(
      1,
    );
    expect(decodeGif(await images.gif({ remainingSeconds: 500, frames: 12 })).frames).toHaveLength(
      12,
    );
  });

  it("keeps one frame per second when nothing visible changes (minutes only)", async () => {
    const gif = decodeGif(
      await images.gif({ remainingSeconds: 3600, look: { units: ["hours", "minutes"] } }),
    );
    expect(gif.frames).toHaveLength(60);
    expect(gif.info.every((f) => f.delay === 100)).toBe(true);
    // 60:00 rounds up to 1:00 for 60 seconds; the rest repaint one pixel.
    expect(samePixels(gif.frames[0]!, gif.frames[59]!)).toBe(true);
  });

  it("draws 2x images at twice the size, same layout", async () => {
    const one = decodeGif(await images.gif({ remainingSeconds: remaining, frames: 3 }));
    const two = decodeGif(await images.gif({ remainingSeconds: remaining, frames: 3, scale: 2 }));
    expect([two.width, two.height]).toEqual([1200, 320]);
    expect(two.frames).toHaveLength(3);
    // The changed rectangles scale with it (give or take a pixel of anti-aliasing).
    expect(Math.abs(two.info[1]!.x - 2 * one.info[1]!.x)).toBeLessThanOrEqual(4);
  });

  it("is deterministic: same input, same bytes", async () => {
    const a = await images.gif({ remainingSeconds: 12_345, look: { theme: "dark" } });
    const b = await createImageRenderer().gif({
      remainingSeconds: 12_345,
      look: { theme: "dark" },
    });
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  it("uses the look's dark colours for the dark variant", async () => {
    const look = { dark: { background_color: "#000000" } };
    const light = await images.rgba({ remainingSeconds: 60, look });
    const dark = await images.rgba({ remainingSeconds: 60, look, variant: "dark" });
    const centre = (p: typeof light) => [
      ...p.rgba.subarray((80 * 600 + 20) * 4, (80 * 600 + 20) * 4 + 3),
    ];
    expect(centre(light)).toEqual([255, 255, 255]);
    expect(centre(dark)).toEqual([0, 0, 0]);
  });

  it("draws the dark variant of a look without dark colours dark, and a dark look as it is", async () => {
    const centre = (p: { rgba: Uint8Array }) => [
      ...p.rgba.subarray((80 * 600 + 20) * 4, (80 * 600 + 20) * 4 + 3),
    ];
    // The default look has dark: null; asking for its dark variant used to give it white.
    const byDefault = await images.rgba({ remainingSeconds: 60, variant: "dark" });
    expect(centre(byDefault)).toEqual([0x11, 0x18, 0x27]);
    const black = { background_color: "#000000", text_color: "#FFFFFF" };
    const own = await images.rgba({ remainingSeconds: 60, look: black, variant: "dark" });
    expect(centre(own)).toEqual([0, 0, 0]);
  });

  it("draws no label where an override is empty", async () => {
    const input = { remainingSeconds: 3_725, look: { labels: { seconds: "" } } };
    const diff = compare(await images.rgba(input), await images.reference(input));
    expect(diff.differing).toBeLessThan(0.005);
  });

  it("shrinks a font too large for the width instead of clipping", async () => {
    const gif = decodeGif(
      await images.gif({
        remainingSeconds: dhms(12, 1, 1, 1),
        width: 200,
        look: { font_size: 150 },
        frames: 2,
      }),
    );
    expect(gif.width).toBe(200);
    // The panel's right border is intact: nothing was drawn across it.
    const row = gif.frames[0]!;
    const edge = (y: number) => [
      ...row.rgba.subarray((y * 200 + 199) * 4, (y * 200 + 199) * 4 + 3),
    ];
    expect(edge(row.height >> 1)).toEqual(edge(20));
  });
});

describe("transparent looks", () => {
  const look = { transparent: true, matte_color: "#FFFFFF" };

  it("have a transparent index, used by the background, and clear what changes", async () => {
    const gif = decodeGif(await images.gif({ remainingSeconds: 70, look, frames: 12 }));
    expect(gif.info[0]!.transparent_index).toBe(0);
    // A corner outside the panel is see-through.
    expect(gif.frames[0]!.rgba[3]).toBe(0);
    // Later frames clear their rectangle after themselves, and each rectangle holds
    // the one before it (a cleared area must be redrawn whole).
    const later = gif.info.slice(1);
    expect(later.every((f) => f.disposal === 2)).toBe(true);
    for (let k = 1; k < later.length; k++) {
      const [a, b] = [later[k - 1]!, later[k]!];
      expect(b.x <= a.x && b.y <= a.y).toBe(true);
      expect(b.x + b.width >= a.x + a.width && b.y + b.height >= a.y + a.height).toBe(true);
    }
    // Each frame on screen equals the frame composited directly...
    for (const k of [2, 5, 11]) {
      const direct = await images.rgba({ remainingSeconds: 70, look, frame: k });
      expect(samePixels(gif.frames[k]!, direct), `frame ${k}`).toBe(true);
    }
    // ...except frame 1, which paints the matte where frame 0's ink cannot be cleared.
    const direct = await images.rgba({ remainingSeconds: 70, look, frame: 1 });
    const shown = gif.frames[1]!.rgba;
    let ghosts = 0;
    for (let i = 0; i < shown.length; i += 4) {
      if (shown.subarray(i, i + 4).join() === direct.rgba.subarray(i, i + 4).join()) continue;
      expect(direct.rgba[i + 3]).toBe(0);
      expect([...shown.subarray(i, i + 4)]).toEqual([255, 255, 255, 255]);
      ghosts++;
    }
    expect(ghosts).toBeGreaterThan(0);
  });

  it("write PNGs with a tRNS chunk", async () => {
    const png = decodePng(await images.png({ remainingSeconds: 70, look }));
    expect(png.transparentIndex).toBe(0);
    expect(png.rgba[3]).toBe(0);
  });
});

describe("still PNG", () => {
  it("is the GIF's first frame", async () => {
    const png = decodePng(await images.png({ remainingSeconds: remaining }));
    const gif = decodeGif(await images.gif({ remainingSeconds: remaining, frames: 2 }));
    expect([png.width, png.height]).toEqual([600, 160]);
    expect(samePixels(png, gif.frames[0]!)).toBe(true);
  });

  it("comes at 2x too", async () => {
    const png = decodePng(await images.png({ remainingSeconds: remaining, scale: 2, width: 320 }));
    expect([png.width, png.height]).toEqual([640, 320]);
  });
});

describe("validation", () => {
  const cases: Array<[string, Record<string, unknown>]> = [
    ["width", { width: 99 }],
    ["width", { width: 1201 }],
    ["width", { width: 600.5 }],
    ["height", { height: 39 }],
    ["height", { height: 601 }],
    ["frames", { frames: 0 }],
    ["frames", { frames: 61 }],
    ["scale", { scale: 3 }],
    ["variant", { variant: "sepia" }],
    ["remainingSeconds", { remainingSeconds: -1 }],
    ["remainingSeconds", { remainingSeconds: Number.NaN }],
    ["running", { running: "yes" }],
    ["ended.text", { ended: { text: "x".repeat(201) } }],
    ["look.text_color", { look: { text_color: "red" } }],
    ["look.background_color", { look: { background_color: "#12345" } }],
    ["look.font_size", { look: { font_size: 500 } }],
    ["look.font", { look: { font: "comic" } }],
    ["look.separator", { look: { separator: "----" } }],
    ["look", { look: { sparkles: true } }],
  ];
  for (const [field, patch] of cases) {
    it(`refuses ${JSON.stringify(patch)} naming ${field}`, async () => {
      const error = await images.gif({ remainingSeconds: 10, ...patch } as never).then(
        () => null,
        (err: unknown) => err,
      );
      expect(error).toBeInstanceOf(RenderError);
      expect((error as RenderError).code).toBe("validation_error");
      expect((error as RenderError).field).toBe(field);
      expect((error as RenderError).message).toContain(field);
    });
  }

  it("refuses a frame index outside the animation", async () => {
    await expect(images.rgba({ remainingSeconds: 10, frame: 60 })).rejects.toMatchObject({
      code: "validation_error",
      field: "frame",
    });
  });
});

describe("the atlas cache", () => {
  it("is bounded", async () => {
    const small = createImageRenderer({ maxLooks: 2 });
    for (const color of ["#111111", "#222222", "#333333"])
      await small.png({ remainingSeconds: 5, look: { text_color: color }, width: 120, height: 40 });
    expect(small.cachedLooks).toBe(2);
  });

  it("shares one atlas build between concurrent first requests", async () => {
    const fresh = createImageRenderer();
    const look = { text_color: "#444444" };
    await Promise.all(
      [1, 2, 3].map((s) => fresh.gif({ remainingSeconds: s * 100, look, frames: 2 })),
    );
    expect(fresh.cachedLooks).toBe(1);
  });
});

describe("direction controls in text drawn into images", () => {
  const RLO = "\u202E";
  const CONTROLS = /[\u202A-\u202E\u2066-\u2069]/;

  it("are dropped from labels, separator and ended text", () => {
    const look = lookSchema.parse({
      separator: `${RLO}:`,
      labels: { seconds: `${RLO}ces`, minutes: "\u2067min\u2069" },
    });
    const text = lookText(look, `\u202ASale\u202C ${RLO}revo`);
    expect(text.separator).toBe(":");
    expect(text.endedText).toBe("Sale revo");
    expect(text.labelsByUnit.get("seconds")).toEqual(["ces"]);
    expect(text.labelsByUnit.get("minutes")).toEqual(["min"]);
    for (const forms of text.labelsByUnit.values())
      for (const word of forms) expect(word).not.toMatch(CONTROLS);
  });

  it("draw the same image as the text without them", async () => {
    const plain = { separator: ":", labels: { seconds: "ces" } };
    const marked = { separator: `${RLO}:`, labels: { seconds: `${RLO}ces` } };
    const same = async (a: object, b: object) =>
      samePixels(await images.rgba(a as never), await images.rgba(b as never));
    expect(
      await same(
        { remainingSeconds: 3_725, look: plain },
        { remainingSeconds: 3_725, look: marked },
      ),
    ).toBe(true);
    expect(
      await same(
        { remainingSeconds: 0, ended: { text: "Over" } },
        { remainingSeconds: 0, ended: { text: `\u2066${RLO}Over\u2069` } },
      ),
    ).toBe(true);
  });
});

/** Pixels that are strongly coloured (not grey): emoji, not text in the look's greys. */
function colourful(p: { rgba: Uint8Array }): number {
  let n = 0;
  for (let i = 0; i < p.rgba.length; i += 4) {
    const r = p.rgba[i]!;
    const g = p.rgba[i + 1]!;
    const b = p.rgba[i + 2]!;
    if (Math.max(r, g, b) - Math.min(r, g, b) > 80) n++;
  }
  return n;
}

describe("emoji and every character (issue 37)", () => {
  // Black on white, no accent colour around: any colour in the picture is an emoji's.
  const grey = { accent_color: "#6B7280" };

  it("draw an ended text with emoji as colour pictures, the slow path's pixels exactly", async () => {
    const input = { remainingSeconds: 0, look: grey, ended: { text: "🎅 Sale over! 🎁" } };
    const fast = await images.rgba(input);
    const diff = compare(fast, await images.reference(input));
    expect(diff.max).toBeLessThanOrEqual(24);
    expect(diff.differing).toBeLessThan(0.005);
    expect(colourful(fast)).toBeGreaterThan(200);
    const plain = await images.rgba({ remainingSeconds: 0, look: grey, ended: { text: "Ended" } });
    expect(samePixels(fast, plain)).toBe(false);
    expect(colourful(plain)).toBe(0);
    // And in the GIF, as decoded by another decoder.
    const gif = decodeGif(await images.gif({ ...input, remainingSeconds: 2 }));
    expect(samePixels(gif.frames.at(-1)!, fast)).toBe(true);
  });

  it("draw a label with an emoji and an accent as written, not the English word", async () => {
    const look = { ...grey, labels: { days: "días 🔥" } };
    const input = { remainingSeconds: dhms(3, 4, 5, 6), look };
    const fast = await images.rgba(input);
    const diff = compare(fast, await images.reference(input));
    expect(diff.max).toBeLessThanOrEqual(24);
    expect(diff.differing).toBeLessThan(0.005);
    expect(colourful(fast)).toBeGreaterThan(20);
    const english = await images.rgba({ remainingSeconds: dhms(3, 4, 5, 6), look: grey });
    expect(samePixels(fast, english)).toBe(false);
  });

  it("draw an emoji separator in every frame of a GIF", async () => {
    const look = { ...grey, separator: "⏳" };
    const gif = decodeGif(await images.gif({ remainingSeconds: 125, look, frames: 6 }));
    for (const k of [0, 5]) {
      expect(colourful(gif.frames[k]!), `frame ${k}`).toBeGreaterThan(20);
      const diff = compare(
        gif.frames[k]!,
        await images.reference({ remainingSeconds: 125, look, frame: k }),
      );
      expect(diff.differing, `frame ${k}`).toBeLessThan(0.005);
    }
  });

  it("refuse a character no font and no emoji has, naming the field and the character", async () => {
    const refused = async (input: object) => {
      try {
        await images.gif(input as never);
      } catch (error) {
        return error as RenderError;
      }
      throw new Error("drawn");
    };
    const ended = await refused({ remainingSeconds: 0, ended: { text: "Sale \uE000" } });
    expect(ended).toBeInstanceOf(RenderError);
    expect(ended).toMatchObject({ code: "validation_error", field: "ended.text" });
    expect(ended.message).toContain("U+E000");
    const label = await refused({
      remainingSeconds: 90,
      look: { labels: { seconds: "s\u{F0001}" } },
    });
    expect(label).toMatchObject({ field: "look.labels.seconds" });
    expect(label.message).toContain("U+F0001");
  });
});

describe("hidden leading zero units (issue 37)", () => {
  const look = { hide_leading_zero_units: true };

  it("shows no zero days, and drops the hours in the frame they reach zero", async () => {
    // 0 days 1:00:30: frame 30 shows 1:00:00, frame 31 shows 59:59 with no hours.
    const remainingSeconds = dhms(0, 1, 0, 30);
    const gif = decodeGif(await images.gif({ remainingSeconds, look }));
    expect(gif.frames).toHaveLength(60);
    for (const k of [0, 30, 31, 59]) {
      const still = await images.rgba({ remainingSeconds: remainingSeconds - k, look });
      expect(samePixels(gif.frames[k]!, still), `frame ${k}`).toBe(true);
      const diff = compare(
        gif.frames[k]!,
        await images.reference({ remainingSeconds, look, frame: k }),
      );
      expect(diff.max, `frame ${k}`).toBeLessThanOrEqual(24);
      expect(diff.differing, `frame ${k}`).toBeLessThan(0.005);
    }
    // Not the picture with every unit shown: the row is laid out anew, narrower.
    const shown = await images.rgba({ remainingSeconds: remainingSeconds - 31 });
    expect(samePixels(gif.frames[31]!, shown)).toBe(false);
    // Frame 0 is exact on its own (Outlook shows only it).
    const first = await images.rgba({ remainingSeconds, look });
    const full = await images.rgba({ remainingSeconds });
    expect(samePixels(first, full)).toBe(false);
  });

  it("changes nothing while the largest unit is not zero, nor with the option off", async () => {
    const remainingSeconds = dhms(2, 0, 0, 5);
    expect(
      samePixels(
        await images.rgba({ remainingSeconds, look }),
        await images.rgba({ remainingSeconds }),
      ),
    ).toBe(true);
  });

  it("keeps the smallest unit to the end, then the ended look", async () => {
    const gif = decodeGif(await images.gif({ remainingSeconds: 3, look, ended: { text: "Over" } }));
    expect(gif.frames).toHaveLength(4);
    expect(
      samePixels(
        gif.frames[2]!,
        await images.rgba({ remainingSeconds: 1, look, ended: { text: "Over" } }),
      ),
    ).toBe(true);
    const diff = compare(
      gif.frames[0]!,
      await images.reference({ remainingSeconds: 3, look, ended: { text: "Over" } }),
    );
    expect(diff.differing).toBeLessThan(0.005);
  });

  it("works in transparent looks too (frames cleared and redrawn as the row moves)", async () => {
    const clear = { ...look, transparent: true, matte_color: "#FFFFFF" };
    const remainingSeconds = dhms(0, 0, 1, 2);
    const gif = decodeGif(await images.gif({ remainingSeconds, look: clear, frames: 6 }));
    for (const k of [0, 2, 3, 5]) {
      const still = await images.rgba({ remainingSeconds: remainingSeconds - k, look: clear });
      expect(samePixels(gif.frames[k]!, still), `frame ${k}`).toBe(true);
    }
  });
});
