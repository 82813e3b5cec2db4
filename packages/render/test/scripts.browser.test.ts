// Every script in images: Chinese, Japanese, Korean, Arabic, Hebrew, Thai and
// Devanagari labels and ended texts are drawn with real glyphs (never .notdef
// boxes, never the English fallback), and an ended text looks like Chromium's
// rendering of the same text with the same font files: Chromium shapes with
// HarfBuzz and applies the Unicode bidi algorithm, so matching its ink profile
// column by column proves joining, cluster reordering and right-to-left order.
import { lookSchema } from "@tminus/core";
import { createImageRenderer } from "@tminus/render";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseDirection } from "../src/_bidi";
import { allLabels, drawnText, lookText } from "../src/content";
import { fontStack } from "../src/fonts";
import { chromiumAvailable as available, launchChromium } from "./_chromium";
import { correlation, decodePng, glyphId, type InkSignature, inkSignature } from "./helpers";

const CASES = [
  { script: "Chinese (Simplified)", locale: "zh", ended: "促销已结束" },
  { script: "Chinese (Traditional)", locale: "zh-Hant", ended: "優惠已結束" },
  { script: "Japanese", locale: "ja", ended: "セール終了" },
  { script: "Korean", locale: "ko", ended: "세일 종료" },
  { script: "Arabic", locale: "ar", ended: "انتهى العرض!" },
  { script: "Persian", locale: "fa", ended: "حراج تمام شد" },
  { script: "Hebrew", locale: "he", ended: "המבצע נגמר!" },
  { script: "Thai", locale: "th", ended: "หมดเวลาแล้ว" },
  { script: "Devanagari", locale: "hi", ended: "ऑफ़र समाप्त" },
] as const;

const RTL = new Set(["ar", "fa", "he"]);

describe.each(CASES)("$script ($locale)", ({ locale, ended }) => {
  const look = lookSchema.parse({ locale });
  const text = lookText(look, ended);

  it("keeps the locale's labels and the ended text (no English fallback)", () => {
    expect(text.labelLocale).toBe(locale);
    expect(text.endedText).toBe(ended);
    expect(allLabels(text).length).toBeGreaterThan(0);
  });

  it("maps every character it draws to a real glyph of a loaded face", () => {
    const drawn = drawnText(text);
    const { fonts } = fontStack(look.font, drawn, locale);
    for (const ch of drawn) {
      if (/\s/u.test(ch)) continue;
      const cp = ch.codePointAt(0)!;
      const face = fonts.find((f) => glyphId(f.data, cp) !== 0);
      expect(face, `U+${cp.toString(16).toUpperCase()} ${ch}`).toBeDefined();
    }
  });

  it("gives a cell the base direction a browser would", () => {
    expect(baseDirection(ended)).toBe(RTL.has(locale) ? "rtl" : "ltr");
  });
});

describe("fonts are read only for the scripts a look's text has", () => {
  const families = (text: string, locale = "en") =>
    new Set(fontStack("sans", text, locale).fonts.map((f) => f.name.replace(/-[^-]+$/, "")));

  it("Latin text takes Inter alone", () => {
    expect(families("0123456789:days Sale over")).toEqual(new Set(["tminus-inter"]));
  });

  it("each script adds its own Noto family and nothing else", () => {
    expect(families("0123456789 ساعات")).toEqual(
      new Set(["tminus-inter", "tminus-noto-sans-arabic"]),
    );
    expect(families("0123456789 ชั่วโมง")).toEqual(
      new Set(["tminus-inter", "tminus-noto-sans-thai"]),
    );
    expect(families("0123456789 세일")).toEqual(new Set(["tminus-inter", "tminus-noto-sans-kr"]));
  });

  it("the look's locale picks the CJK family for shared Han characters", () => {
    expect(families("時間", "ja")).toEqual(new Set(["tminus-inter", "tminus-noto-sans-jp"]));
    expect(families("時間", "zh-Hant")).toEqual(new Set(["tminus-inter", "tminus-noto-sans-tc"]));
    expect(families("时间", "zh")).toEqual(new Set(["tminus-inter", "tminus-noto-sans-sc"]));
  });
});

let browser: Browser;

describe.skipIf(!available)("ended texts match Chromium's rendering with the same fonts", () => {
  const images = createImageRenderer();

  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  /** Our image: the ended state, black on white, no border. */
  async function ours(locale: string, ended: string): Promise<InkSignature> {
    const png = decodePng(
      await images.png({
        remainingSeconds: 0,
        width: 1200,
        height: 200,
        look: {
          locale,
          panel: "plain",
          background_color: "#FFFFFF",
          text_color: "#000000",
        },
        ended: { text: ended },
      }),
    );
    const dark = new Uint8Array(png.width * png.height);
    for (let i = 0; i < dark.length; i++)
      dark[i] = 255 - Math.min(png.rgba[i * 4]!, png.rgba[i * 4 + 1]!, png.rgba[i * 4 + 2]!);
    return inkSignature(dark, png.width, png.height);
  }

  /** Chromium's: the same faces, bold, drawn by its own shaper in the direction it picks. */
  async function reference(locale: string, ended: string): Promise<InkSignature> {
    const stack = fontStack("sans", `0123456789${ended}`, locale);
    const page = await browser.newPage();
    try {
      const { width, height, alpha } = await page.evaluate(
        async ({ faces, family, text }) => {
          for (const face of faces) {
            const bytes = Uint8Array.from(atob(face.data), (c) => c.charCodeAt(0));
            const loaded = await new FontFace(face.name, bytes, {
              weight: String(face.weight),
            }).load();
            document.fonts.add(loaded);
          }
          // The paragraph direction Chromium itself gives the text (dir="auto").
          const probe = document.createElement("p");
          probe.dir = "auto";
          probe.textContent = text;
          document.body.append(probe);
          const rtl = probe.matches(":dir(rtl)");
          const canvas = document.createElement("canvas");
          canvas.width = 1400;
          canvas.height = 200;
          const ctx = canvas.getContext("2d")!;
          ctx.font = `700 64px ${family}`;
          ctx.direction = rtl ? "rtl" : "ltr";
          ctx.textAlign = "center";
          ctx.fillText(text, 700, 120);
          const data = ctx.getImageData(0, 0, 1400, 200).data;
          const alpha: number[] = [];
          for (let i = 3; i < data.length; i += 4) alpha.push(data[i]!);
          return { width: 1400, height: 200, alpha };
        },
        {
          faces: stack.fonts
            .filter((f) => f.weight === 700)
            .map((f) => ({ name: f.name, weight: f.weight, data: f.data.toString("base64") })),
          family: stack.family,
          text: ended,
        },
      );
      return inkSignature(alpha, width, height);
    } finally {
      await page.close();
    }
  }

  it.each(CASES)("$script", async ({ locale, ended }) => {
    const [a, b] = [await ours(locale, ended), await reference(locale, ended)];
    const columns = correlation(a.columns, b.columns);
    const mirrored = correlation([...a.columns].reverse(), b.columns);
    const rows = correlation(a.rows, b.rows);
    const summary = JSON.stringify({
      columns,
      mirrored,
      rows,
      a: [a.width, a.height, a.coverage],
      b: [b.width, b.height, b.coverage],
    });
    // The same glyphs in the same order: column profiles agree closely...
    expect(columns, summary).toBeGreaterThan(0.9);
    expect(rows, summary).toBeGreaterThan(0.85);
    // ...and not merely by symmetry: the text drawn backwards would not match.
    expect(columns - mirrored, summary).toBeGreaterThan(0.15);
    // The same shape of box and amount of ink (sizes differ; the ratio does not).
    expect(
      Math.abs(a.width / a.height - b.width / b.height) / (b.width / b.height),
      summary,
    ).toBeLessThan(0.12);
    expect(Math.abs(a.coverage - b.coverage) / b.coverage, summary).toBeLessThan(0.2);
  });
});
