// Uploaded fonts: read by parsing (never by name or extension), refused with one clear reason,
// cut down to what a look draws, and drawn in images exactly as satori draws the whole file.
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readFontFile } from "../src/fonts";
import {
  createImageRenderer,
  FileProblem,
  inspectFont,
  lookFontProblem,
  lookFontText,
  renderEmbed,
  renderHostedPage,
  renderPng,
  subsetFont,
} from "../src/index";
import { unpackWoff } from "../src/uploads/woff";
import { compare, decodeGif, problemOf, samePixels } from "./helpers";

// Press Start 2P (SIL OFL 1.1, fixtures/press-start-2p-OFL.txt): a pixel font, unlike any
// built-in one, so a picture drawn with it cannot be mistaken for Inter.
const WOFF = new Uint8Array(
  readFileSync(new URL("./fixtures/press-start-2p.woff", import.meta.url)),
);
const TTF = new Uint8Array(unpackWoff(WOFF));
const ID = "01969e7c-8d7e-7a43-9c57-1f1f0e3e4b2a";

describe("reading an uploaded font", () => {
  it("reads TTF and WOFF by their bytes, with the family the font names", () => {
    const woff = inspectFont(WOFF);
    expect(woff).toMatchObject({ format: "woff", family: "Press Start 2P" });
    const ttf = inspectFont(TTF);
    expect(ttf).toMatchObject({ format: "ttf", family: "Press Start 2P" });
    expect(Buffer.from(woff.sfnt).equals(Buffer.from(TTF))).toBe(true);
    expect(ttf.missing("0123456789:Days")).toEqual([]);
    // Latin only: Cyrillic and arrows are missing, each named once.
    expect(ttf.missing("дни→дн")).toEqual(["д", "н", "и", "→"]);
    // A pixel font: every digit is a full em wide (Inter's are about 0.7).
    expect(ttf.widestEm("0123456789")).toBe(1);
  });

  it("refuses each bad file with one reason that says what it is", async () => {
    const woff2 = Uint8Array.from([...Buffer.from("wOF2"), ...WOFF.subarray(4)]);
    expect(problemOf(() => inspectFont(woff2))).toMatchObject({
      reason: "unsupported_format",
      message: expect.stringContaining("WOFF2"),
    });
    const png = await renderPng({ remainingSeconds: 5 });
    expect(problemOf(() => inspectFont(png))).toMatchObject({
      reason: "unsupported_format",
      message: "the file is a PNG image, not a font",
    });
    expect(problemOf(() => inspectFont(Buffer.from("ttcf\0\x01\0\0")))).toMatchObject({
      reason: "unsupported_format",
      message: expect.stringContaining("font collection"),
    });
    expect(problemOf(() => inspectFont(WOFF.subarray(0, 3000)))).toMatchObject({
      reason: "malformed",
      message: expect.stringContaining("cut short"),
    });
    expect(problemOf(() => inspectFont(TTF.subarray(0, TTF.length - 100)))).toMatchObject({
      reason: "malformed",
    });
    // A real font without digits: Inter's Latin cut down to letters.
    const inter = unpackWoff(readFontFile("inter", "latin", 700, "woff"));
    const letters = await subsetFont(inter, "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
    expect(problemOf(() => inspectFont(letters))).toMatchObject({
      reason: "missing_glyphs",
      missing: [..."0123456789"],
      message:
        "the font cannot draw the digits 0, 1, 2, 3, 4, 5, 6, 7, 8, 9: a countdown needs 0-9",
    });
    const someDigits = await subsetFont(inter, "0123456");
    expect(problemOf(() => inspectFont(someDigits))).toMatchObject({
      reason: "missing_glyphs",
      missing: ["7", "8", "9"],
    });
  });

  it("property: a cut or damaged font is a FileProblem or reads, never another error", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(WOFF, TTF),
        fc.nat(),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }),
        (file, cut, flips) => {
          const bytes = file.slice(0, file.length - (cut % file.length));
          for (const [at, value] of flips) if (bytes.length > 0) bytes[at % bytes.length] = value;
          try {
            inspectFont(bytes).missing("0123456789:Days");
          } catch (error) {
            expect(error).toBeInstanceOf(FileProblem);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("a look's uploaded font", () => {
  const font = inspectFont(TTF);

  it("must draw the separator and every label of the look's locale", () => {
    expect(lookFontProblem(font, {})).toBeNull();
    expect(lookFontProblem(font, { separator: "→" })).toMatchObject({
      field: "look.separator",
      missing: ["→"],
    });
    expect(lookFontProblem(font, { locale: "ru" })).toMatchObject({
      field: "look.locale",
      message: expect.stringContaining("in locale ru"),
    });
    expect(lookFontProblem(font, { labels: { days: "Días", hours: "Ωρες" } })).toMatchObject({
      field: "look.labels",
      missing: ["Ω", "ρ", "ε", "ς"],
    });
    // Hidden labels need no glyphs.
    expect(lookFontProblem(font, { locale: "ru", show_labels: false })).toBeNull();
  });

  it("is cut down to the digits, separator, every label form and the ended text", async () => {
    const text = lookFontText({ separator: "|" }, { endedText: "Fin!", more: "Sale" });
    for (const ch of "0123456789|dayshourminteScondFi!Sl") expect(text).toContain(ch);
    const worded = lookFontText({
      heading: { text: "QX" },
      subheading: { text: "Wz", font: "serif" },
      button: { label: "Jv" },
    });
    for (const ch of "QXJv") expect(worded).toContain(ch);
    // The subheading is drawn in a built-in font: none of its own letters are needed.
    expect(worded).not.toContain("W");
    const small = await subsetFont(font.sfnt, text);
    const cut = inspectFont(small);
    expect(cut.missing(text)).toEqual([]);
    expect(cut.missing("QXZ")).toEqual(["Q", "X", "Z"]);
    expect(small.byteLength).toBeLessThan(TTF.byteLength / 2);
  });
});

describe("images drawn with an uploaded font", () => {
  const images = createImageRenderer();
  const whole = createImageRenderer();
  const look = { font_asset_id: ID };

  it("look like satori and resvg drawing the whole frame with the whole font file", async () => {
    const cases = [
      { remainingSeconds: 3 * 86_400 + 4_000, look, frame: 0 },
      { remainingSeconds: 3 * 86_400 + 4_000, look, frame: 9 },
      { remainingSeconds: 75, look: { ...look, theme: "dark", separator: "." }, scale: 2 },
      { remainingSeconds: 0, look, ended: { text: "Ended! Ура" } },
      // Words in the image take the look's (uploaded) font unless they name their own.
      {
        remainingSeconds: 3 * 86_400 + 4_000,
        look: {
          ...look,
          heading: { text: "Big Xmas Quiz!" },
          subheading: { text: "Wrapped? Joy!" },
          button: { label: "Jump KQ" },
        },
      },
    ] as const;
    for (const input of cases) {
      const name = JSON.stringify(input);
      const endedText = "ended" in input ? input.ended.text : undefined;
      const subset = {
        id: ID,
        data: await subsetFont(TTF, lookFontText(input.look, { endedText })),
      };
      const fast = await images.rgba({ ...input, font: subset });
      // Cut down or whole, the font draws the same pixels.
      expect(
        samePixels(fast, await whole.rgba({ ...input, font: { id: ID, data: TTF } })),
        name,
      ).toBe(true);
      // The fast path against the slow one (the ended frame is compared so for no font).
      if (!("ended" in input)) {
        const diff = compare(
          fast,
          await whole.reference({ ...input, font: { id: ID, data: TTF } }),
        );
        expect(diff.max, name).toBeLessThanOrEqual(24);
        expect(diff.differing, name).toBeLessThan(0.005);
      }
      // And the font is really used: the built-in font draws other pixels.
      const builtIn = await images.rgba(input);
      expect(compare(fast, builtIn).differing, name).toBeGreaterThan(0.01);
    }
  });

  it("animates: every GIF frame is the frame drawn on its own", async () => {
    const data = await subsetFont(TTF, lookFontText(look));
    const input = { remainingSeconds: 125, look, font: { id: ID, data }, frames: 12 };
    const gif = decodeGif(await images.gif(input));
    for (const k of [0, 5, 11]) {
      const frame = await images.rgba({ ...input, frame: k });
      expect(samePixels(gif.frames[k]!, frame), `frame ${k}`).toBe(true);
    }
    expect(samePixels(gif.frames[0]!, gif.frames[1]!)).toBe(false);
  });

  it("draws a look whose font is not given with its built-in font, and refuses another id", async () => {
    const same = compare(
      await images.rgba({ remainingSeconds: 90, look }),
      await images.rgba({ remainingSeconds: 90 }),
    );
    expect(same.differing).toBe(0);
    await expect(
      images.rgba({ remainingSeconds: 90, font: { id: ID, data: TTF } }),
    ).rejects.toMatchObject({ code: "validation_error", field: "font.id" });
    // The file is read once per look: a renderer that has not read this one yet.
    await expect(
      createImageRenderer().rgba({
        remainingSeconds: 90,
        look,
        font: { id: ID, data: WOFF.subarray(0, 100) },
      }),
    ).rejects.toMatchObject({ code: "validation_error", field: "font.data" });
  });
});

describe("pages with an uploaded font", () => {
  const base = {
    name: "Sale",
    look: { font_asset_id: ID },
    status: { remaining: { total_seconds: 90_000 }, state: "running" as const, target_at: null },
    now: Date.UTC(2026, 10, 1),
  };
  const url = "https://countdown.example.com/t/abc/font?v=0123456789abcdef";
  /** The em count the digit size is divided by, from the stylesheet's fit rule. */
  const fitEm = (page: string) => Number(/\/ ([\d.]+)\)\)/.exec(page)?.[1]);

  it("load the font from its URL in front of the look's font, and size the row by its width", () => {
    const page = renderHostedPage({ ...base, uploadedFont: { url, widestEm: 1 } });
    expect(page).toContain(`@font-face{font-family:"tminus-upload-${ID}";`);
    expect(page).toContain(`src:url("${url}")`);
    expect(page).toContain(`font-family:"tminus-upload-${ID}", Inter`);
    const plain = renderHostedPage(base);
    expect(plain).not.toContain("tminus-upload-");
    // Digits a full em wide need a wider row than Inter's 0.7 em: smaller digits on a phone.
    expect(fitEm(page)).toBeGreaterThan(fitEm(plain) * 1.3);
    expect(renderEmbed({ ...base, uploadedFont: { url, widestEm: 1 } })).toContain(
      `font-family:"tminus-upload-${ID}"`,
    );
  });

  it("ignore the font for a look that names none, and refuse a width that is no width", () => {
    expect(
      renderHostedPage({ ...base, look: {}, uploadedFont: { url, widestEm: 1 } }),
    ).not.toContain("tminus-upload-");
    expect(() => renderHostedPage({ ...base, uploadedFont: { url, widestEm: 0 } })).toThrow(
      /uploadedFont.widestEm/,
    );
    expect(() =>
      renderHostedPage({ ...base, uploadedFont: { url: "javascript:alert(1)", widestEm: 1 } }),
    ).toThrow(/uploadedFont.url/);
  });
});
