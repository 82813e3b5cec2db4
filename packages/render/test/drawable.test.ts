// Which characters images can draw: every script the fonts ship, emoji from Twemoji, and
// nothing else. The check reads the fonts' cmaps (checked here against an independent cmap
// reader), and it must agree with satori itself, which decides what it draws as a picture.
import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { inRanges, woffCodePoints } from "../src/cmap";
import { describeUndrawable, lookDrawingProblem, undrawableCharacter } from "../src/drawable";
import { emojiFile } from "../src/emoji";
import { fontFiles, fontStack, readFontFile, woffToSfnt } from "../src/fonts";
import { glyphId } from "./helpers";

const require = createRequire(import.meta.url);

describe("undrawableCharacter", () => {
  it("names the first character no font and no emoji has, counted as a reader counts", () => {
    const hit = undrawableCharacter("Sale \uE000 over", "sans");
    expect(hit).toMatchObject({ codePoint: "U+E000", position: 6, grapheme: "\uE000" });
    expect(describeUndrawable(hit!)).toBe(
      'U+E000 "\uE000" (character 6) cannot be drawn: no font and no emoji has it',
    );
    // An emoji before it is one character, however many code points it has.
    expect(undrawableCharacter("🇦", "sans")).toMatchObject({ codePoint: "U+1F1E6" });
    expect(undrawableCharacter("x🏽", "sans")).toMatchObject({ codePoint: "U+1F3FD" });
    expect(undrawableCharacter("👨‍👩‍👧\uF8FF", "serif")).toMatchObject({
      codePoint: "U+F8FF",
      position: 2,
    });
  });

  it("passes emoji of every kind: single, with presentation selector, ZWJ, flag, keycap, skin tone", () => {
    for (const text of [
      "🎅 Sale over! 🎁",
      "días 🔥",
      "❤️",
      "❤",
      "👨‍👩‍👧",
      "🇩🇪",
      "1️⃣",
      "👍🏽",
      "🏳️‍🌈",
    ])
      for (const font of ["sans", "serif", "mono"] as const)
        expect(undrawableCharacter(text, font), `${text} ${font}`).toBeNull();
  });

  it("passes every script the fonts draw today", () => {
    const texts: Array<[string, string]> = [
      ["Ventes terminées, Größe, Łódź, Ærø, Tiếng Việt", "en"],
      ["Распродажа окончена", "ru"],
      ["Η προσφορά έληξε", "el"],
      ["促销已结束", "zh"],
      ["優惠已結束", "zh-Hant"],
      ["セール終了", "ja"],
      ["세일 종료", "ko"],
      ["انتهى العرض!", "ar"],
      ["המבצע נגמר!", "he"],
      ["หมดเวลาแล้ว", "th"],
      ["ऑफ़र समाप्त", "hi"],
    ];
    for (const [text, locale] of texts)
      for (const font of ["sans", "serif", "mono"] as const)
        expect(undrawableCharacter(text, font, locale), `${text} ${font}`).toBeNull();
  });

  it("takes text as it is drawn: decomposed accents composed, direction controls dropped", () => {
    expect(undrawableCharacter("Cafe\u0301 \u202Eover\u202C", "sans")).toBeNull();
  });

  it("refuses a character only a font's unicode-range claims, not its cmap", () => {
    // Inter's Latin subset is declared for all of U+2000-206F; its file lacks some of them.
    const latin = woffCodePoints(readFontFile("inter", "latin", 400, "woff"));
    const claimed = Array.from({ length: 0x70 }, (_, i) => 0x2000 + i);
    const absent = claimed.filter((cp) => !inRanges(latin, cp));
    expect(absent.length).toBeGreaterThan(0);
    const visible = absent.find(
      (cp) =>
        !/\p{Default_Ignorable_Code_Point}/u.test(String.fromCodePoint(cp)) &&
        undrawableCharacter(String.fromCodePoint(cp), "sans") !== null,
    );
    expect(visible, "some claimed character is refused").toBeDefined();
  });
});

describe("font cmaps", () => {
  it("read as an independent cmap reader reads them, for every code point of each subset file", () => {
    for (const { pkg, part } of fontFiles("serif", "en").filter((f) => !/^\d+$/.test(f.part))) {
      const woff = readFontFile(pkg, part, 400, "woff");
      const ranges = woffCodePoints(woff);
      const sfnt = woffToSfnt(woff);
      for (let cp = 0; cp < 0x3000; cp++)
        expect(inRanges(ranges, cp), `${pkg} ${part} U+${cp.toString(16)}`).toBe(
          glyphId(sfnt, cp) !== 0,
        );
    }
  });

  it("are the same in the regular and bold files (labels are regular, the rest bold)", () => {
    const files = ["sans", "serif", "mono"].flatMap((font) =>
      fontFiles(font as "sans", "ja").filter(
        (f) => !/^\d+$/.test(f.part) || Number(f.part) % 20 === 0,
      ),
    );
    for (const { pkg, part } of files)
      expect(woffCodePoints(readFontFile(pkg, part, 700, "woff")), `${pkg} ${part}`).toEqual(
        woffCodePoints(readFontFile(pkg, part, 400, "woff")),
      );
  });
});

describe("emoji", () => {
  const names = readdirSync(dirname(require.resolve("@twemoji/svg/package.json")))
    .filter((f) => f.endsWith(".svg"))
    .map((f) => f.slice(0, -4));
  const asText = (name: string) =>
    String.fromCodePoint(...name.split("-").map((h) => Number.parseInt(h, 16)));

  it("finds every file of the set from its sequence, with or without U+FE0F", () => {
    for (const name of names) {
      expect(emojiFile(asText(name))).toBe(name);
      if (!name.includes("200d") && !name.includes("fe0f"))
        expect(emojiFile(`${asText(name)}\uFE0F`)).toBe(name);
    }
  });

  it("are drawn by satori as pictures (asked of the hook as emoji) or with a font, never left out", async () => {
    // Lone regional indicator letters and skin tones are refused (they would join across texts).
    const graphemes = [
      ...names.map(asText).filter((g) => !/^[\u{1F1E6}-\u{1F1FF}\u{1F3FB}-\u{1F3FF}]$/u.test(g)),
      "❤️",
      "☀️",
      "©️",
      "#️⃣",
    ];
    const asked: Array<{ code: string; segment: string }> = [];
    const { default: satori } = (await import("satori")) as unknown as {
      default: (element: unknown, options: unknown) => Promise<string>;
    };
    await satori(
      {
        type: "div",
        props: {
          style: { display: "flex", flexWrap: "wrap" },
          // One element each: a lone regional indicator would pair with the next one.
          children: graphemes.map((g) => ({ type: "div", props: { children: g } })),
        },
      },
      {
        width: 4000,
        fonts: fontStack("sans", "0123456789").fonts,
        loadAdditionalAsset: async (code: string, segment: string) => {
          asked.push({ code, segment });
          return [];
        },
      },
    );
    const segmenter = new Intl.Segmenter("en", { granularity: "grapheme" });
    for (const { code, segment } of asked) {
      if (code === "emoji") expect(emojiFile(segment), segment).not.toBeNull();
      // Anything satori wants as other than an emoji has no picture: the check refuses it.
      else
        for (const { segment: g } of segmenter.segment(segment))
          if (g.trim() !== "")
            expect(
              undrawableCharacter(g, "sans"),
              `${code} ${g} ${[...g].map((c) => c.codePointAt(0)!.toString(16))}`,
            ).not.toBeNull();
    }
    expect(asked.filter((a) => a.code === "emoji").length).toBeGreaterThan(3000);
  }, 60_000);
});

describe("lookDrawingProblem", () => {
  it("is null for emoji in the ended text and the labels (issue 37)", () => {
    expect(lookDrawingProblem({ labels: { days: "días 🔥" } }, "🎅 Sale over! 🎁")).toBeNull();
  });

  it("names the field: separator, own label, locale words, ended text", () => {
    expect(lookDrawingProblem({ separator: "\uE000" })?.field).toBe("look.separator");
    expect(lookDrawingProblem({ labels: { hours: "h\uE001" } })).toMatchObject({
      field: "look.labels.hours",
      message: 'U+E001 "\uE001" (character 2) cannot be drawn: no font and no emoji has it',
    });
    expect(lookDrawingProblem({}, "Over \u{F0000}")?.field).toBe("ended.text");
    expect(lookDrawingProblem({}, "Over")).toBeNull();
  });
});
