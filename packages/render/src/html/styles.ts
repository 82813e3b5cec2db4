// The pages' stylesheet. Everything in the countdown is sized in em of one font size
// that is the look's font_size where it fits and shrinks with the width where it
// does not, so no look (7-digit days, a 3-character separator, 200 px digits) ever
// makes a 390 px phone scroll sideways.
import { formatParts, type Look, splitRemaining } from "@tminus/core";
import { luminance } from "../colors";
import { type Countdown, unitShares } from "./countdown";
import { SHARE_STYLES, STYLE_TINT, styleShapeRules } from "./style-shapes";
import { EMOJI_FAMILY, webFontCss, webFontFamily } from "./web-fonts";

// System fonts after the served one: what shows while it loads, or when a library
// caller renders the page without a font URL.
const FONT_STACKS = {
  sans: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  mono: '"Roboto Mono", ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  serif: 'Lora, Georgia, Cambria, "Times New Roman", Times, serif',
} as const;

// Widths in em of bold text, on the safe side for the three served fonts and for the
// system fonts shown before them or without them (measured in Chromium at weight 700):
// DejaVu Sans's digits are 0.70 em wide and its W 1.10, DejaVu Serif's H 0.95, every
// monospaced glyph 0.60, Cyrillic such as "Щ" up to 1.33, emoji about 1.04.
const DIGIT_EM = 0.7;
const MONO_EM = 0.62;
const SPACE_EM = 0.6;
const NARROW_EM = 0.46; // ":" "." "|" and the like
const BROAD_EM = 1.13; // "W" "M" "m" "w" "%" "@" "Æ"
const OTHER_EM = 0.95; // the rest of Latin-1
const WIDE_EM = 1.35; // anything outside Latin-1: Cyrillic, CJK, emoji
// Fixed pieces of the layout, in em of the digit size.
const PANEL_PAD_X = 0.6;
const GROUP_MIN = 1.4;
const SEP_PAD = 0.12;
const GAP = 0.4;
// Pixels around the panel that do not scale: its 2 px border on each side.
const BORDER_PX = 4;

/** The colours a page uses. Colours reach CSS only after core's schema checked them. */
function color(value: string): string {
  if (!/^#[0-9A-Fa-f]{6}$/.test(value)) throw new Error(`not a colour: ${value}`);
  return value;
}

/** Black-ish or white text, whichever reads better on `background` (WCAG contrast). */
export function readableOn(background: string): string {
  const l = luminance(background);
  // Contrast with white (1.05 / (l + .05)) against contrast with #111827 (l + .05) / (.0125 + .05).
  return 1.05 / (l + 0.05) >= (l + 0.05) / 0.0625 ? "#FFFFFF" : "#111827";
}

function charEm(ch: string, font: Look["font"], uploaded: number): number {
  // An uploaded font's widest character bounds all of its own, whatever their script.
  if (uploaded > 0) return Math.max(uploaded, NARROW_EM);
  if (ch.codePointAt(0)! >= 0x100) return WIDE_EM;
  if (font === "mono") return MONO_EM;
  if (ch === " ") return SPACE_EM;
  if (/[.:,;'|!·]/.test(ch)) return NARROW_EM;
  return /[WMmw%@©®Ææ¼½¾]/.test(ch) ? BROAD_EM : OTHER_EM;
}

/**
 * How wide the countdown row is, in em of the digit size, at its widest: now (the digit
 * count only falls as time passes, and hidden leading zero units only grow in number). Labels wrap under their digits when space is short,
 * so they do not count.
 */
export function rowWidthEm(c: Countdown): number {
  const parts = formatParts(
    splitRemaining(c.total, {
      largestUnit: c.look.largest_unit,
      units: c.units,
      hideLeadingZeroUnits: c.look.hide_leading_zero_units,
    }),
    { pad: c.look.pad },
  );
  const uploaded = c.uploadedFont?.widestEm ?? 0;
  const digit = Math.max(DIGIT_EM, uploaded);
  const sep =
    c.look.separator === ""
      ? GAP
      : [...c.look.separator].reduce((w, ch) => w + charEm(ch, c.look.font, uploaded), 2 * SEP_PAD);
  return parts.reduce(
    (w, p, i) => w + unitEm(c.look.style, p.text.length, digit) + (i > 0 ? sep : 0),
    2 * PANEL_PAD_X,
  );
}

/**
 * One unit's width in em: its digits and what its style draws around them (the padding and
 * border of boxes, outlines and flip cards, a ring's diameter). Left out, a phone's row is
 * wider than its font size was chosen for, its groups shrink, and shapes run into separators.
 */
function unitEm(style: Look["style"], chars: number, digit: number): number {
  const text = chars * digit;
  switch (style) {
    case "boxes":
    case "outlined":
      return Math.max(GROUP_MIN, text + 0.4); // .16em padding and up to .04em border a side
    case "flip":
      return Math.max(GROUP_MIN, text + chars * 0.06 + 0.24); // letter-spacing, .12em padding
    case "circles":
      return Math.max(2.3, text + 0.4); // the ring's min-width, or .2em padding a side
    default:
      return Math.max(GROUP_MIN, text);
  }
}

/**
 * Each style's rules. Shapes are sized in em of the digits, like the rest of the row; rings
 * and bars read the unit's share from --p, which the page's script sets every second (the
 * first values are here, since the page's policy allows no style attributes).
 */
function styleRules(c: Countdown, backdrop: string): string[] {
  const rules = [`.tm-timer{--tm-tint:${STYLE_TINT}}`];
  if (backdrop)
    rules.push(
      `.tm-timer{${backdrop}}`,
      ".tm-row{background:var(--tm-bg);border-radius:12px;padding:.2em .4em}",
    );
  rules.push(...styleShapeRules(c.look.style, ".tm-digits", ".tm-label"));
  if (SHARE_STYLES.has(c.look.style))
    for (const { unit, share } of unitShares(c))
      rules.push(`.tm-digits[data-unit="${unit}"]{--p:${round(share)}}`);
  return rules;
}

/** A URL inside url("..."): checked http(s) already; quotes and backslashes escaped. */
function cssUrl(url: string): string {
  return url.replace(/[\\"\n\r]/g, (ch) => `\\${ch.charCodeAt(0).toString(16)} `);
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** The stylesheet of the hosted page ("page") or the embed. */
export function stylesheet(c: Countdown, mode: "page" | "embed", fontsUrl: string | null): string {
  const { look } = c;
  const f = look.font_size;
  const accent = (a: string) => look.brand_color ?? a;
  const vars = (bg: string, fg: string, a: string) =>
    `--tm-bg:${color(bg)};--tm-fg:${color(fg)};--tm-accent:${color(a)};` +
    `--tm-cta-bg:${color(accent(a))};--tm-cta-fg:${readableOn(accent(a))};`;
  const dark = look.dark
    ? `@media (prefers-color-scheme: dark){:root{${vars(look.dark.background_color, look.dark.text_color, look.dark.accent_color)}}}`
    : "";
  // Around the panel the embed is see-through: the host page shows, not a band of the
  // look's background across the iframe's full width.
  const pageBackground = mode === "embed" ? "transparent" : "var(--tm-bg)";
  // A colour-scheme the host page does not share would make the browser paint the iframe
  // opaque; the embed's colours switch through the media query alone.
  const scheme = mode === "page" ? `color-scheme:${look.dark ? "light dark" : "light"}` : "";
  const panel = look.transparent ? "transparent" : "var(--tm-bg)";
  const border =
    look.style === "rounded" ? "border:2px solid var(--tm-accent);border-radius:12px;" : "";
  // A gradient or picture fills the box; the row sits on a panel of the look's colour there.
  const bg = look.transparent ? null : look.background;
  const backdrop =
    bg?.type === "gradient"
      ? `background:linear-gradient(${bg.angle}deg,${color(bg.from)},${color(bg.to)});`
      : bg?.type === "image" && c.backgroundImage
        ? `background:var(--tm-bg) url("${cssUrl(c.backgroundImage)}") center/cover no-repeat;`
        : "";
  const word = (w: { font: Look["font"] | null; size: number; color: string | null }) =>
    `font-size:${w.size}px;${w.color ? `color:${color(w.color)};` : ""}` +
    (w.font ? `font-family:${FONT_STACKS[w.font]};` : "");
  // Emoji right after the look font: the Twemoji pictures the images draw.
  const builtIn = fontsUrl
    ? `"${webFontFamily(look.font)}", "${EMOJI_FAMILY}", ${FONT_STACKS[look.font]}`
    : FONT_STACKS[look.font];
  const upload = c.uploadedFont;
  const family = upload ? `"${upload.family}", ${builtIn}` : builtIn;
  // The digit size: the look's, or what fits the container's width (cqi: the page or
  // embed box, scrollbar excluded; vw where container units are unknown).
  const em = round(rowWidthEm(c));
  const fit = (unit: string) => `font-size:min(${f}px,calc((100${unit} - ${BORDER_PX}px) / ${em}))`;
  const outside = mode === "page" ? 48 : 8; // the box's padding, which 100vw includes
  const band =
    mode === "page" && look.brand_color
      ? `.tm-page{box-shadow:inset 0 6px 0 ${color(look.brand_color)}}`
      : "";
  return [
    fontsUrl ? webFontCss(look.font, fontsUrl) : "",
    // One file for every weight: the digits are bold, the labels regular, the upload one face.
    upload
      ? `@font-face{font-family:"${upload.family}";font-style:normal;font-weight:100 900;` +
        `font-display:swap;src:url("${cssUrl(upload.url)}")}`
      : "",
    `:root{${vars(look.background_color, look.text_color, look.accent_color)}${scheme}}`,
    dark,
    "*{box-sizing:border-box}",
    `html,body{margin:0;background:${pageBackground};color:var(--tm-fg);font-family:${family}}`,
    ".tm-page{min-height:100vh;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:24px;padding:24px;container-type:inline-size}",
    band,
    ".tm-name{margin:0;max-width:100%;font-size:clamp(20px,4vw,32px);font-weight:600;text-align:center;overflow-wrap:anywhere}",
    ".tm-embed{display:flex;justify-content:center;padding:4px;container-type:inline-size}",
    `.tm-timer{display:inline-flex;flex-direction:column;align-items:center;max-width:100%;` +
      `font-size:min(${f}px,calc((100vw - ${outside + BORDER_PX}px) / ${em}));${fit("cqi")};` +
      `padding:.4em ${PANEL_PAD_X}em;background:${panel};${border}}`,
    ".tm-row{display:flex;align-items:flex-start;justify-content:center;max-width:100%;font-variant-numeric:tabular-nums}",
    // A minimum width keeps the row still when a label changes ("hour" to "hours").
    `.tm-group{display:flex;flex-direction:column;align-items:center;min-width:${GROUP_MIN}em;flex:0 1 auto}`,
    ".tm-digits,.tm-sep{font-size:1em;font-weight:700;line-height:1.15;white-space:nowrap}",
    `.tm-sep{color:var(--tm-accent);padding:0 ${SEP_PAD}em;position:relative;top:-.06em}`,
    `.tm-gap{width:${GAP}em;flex:none}`,
    // Long labels wrap under their digits rather than widen the row.
    ".tm-label{font-size:max(11px,.3em);line-height:1.3;text-align:center;overflow-wrap:anywhere}",
    `.tm-ended{display:flex;flex-direction:column;align-items:center;gap:12px;max-width:100%;text-align:center;font-size:min(${f}px,9vw);font-weight:700;line-height:1.2;overflow-wrap:anywhere}`,
    ".tm-ended-image{max-width:100%;height:auto}",
    ".tm-cta{display:inline-block;max-width:100%;min-height:44px;padding:12px 24px;border-radius:8px;" +
      "background:var(--tm-cta-bg);color:var(--tm-cta-fg);font-size:18px;font-weight:700;line-height:20px;" +
      "text-align:center;text-decoration:none;overflow-wrap:anywhere}",
    ".tm-cta:hover{filter:brightness(1.08);text-decoration:underline}",
    ".tm-cta:focus-visible{outline:3px solid var(--tm-fg);outline-offset:3px}",
    ...styleRules(c, backdrop),
    look.heading
      ? `.tm-heading{margin:0 0 .25em;font-weight:700;line-height:1.25;text-align:center;overflow-wrap:anywhere;${word(look.heading)}}`
      : "",
    look.subheading
      ? `.tm-subheading{margin:.25em 0 0;line-height:1.25;text-align:center;overflow-wrap:anywhere;${word(look.subheading)}}`
      : "",
    look.button
      ? `.tm-button{display:inline-block;margin-top:.4em;padding:.4em .9em;border-radius:.4em;font-weight:700;line-height:1.25;text-decoration:none;text-align:center;overflow-wrap:anywhere;` +
        `background:${look.button.background_color ? color(look.button.background_color) : "var(--tm-accent)"};` +
        `${word({ ...look.button, color: look.button.color ?? null })}${look.button.color ? "" : "color:var(--tm-bg);"}}`
      : "",
    ".tm-sr{position:absolute;width:1px;height:1px;margin:-1px;padding:0;border:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}",
    "[hidden]{display:none!important}",
  ]
    .filter(Boolean)
    .join("\n");
}
