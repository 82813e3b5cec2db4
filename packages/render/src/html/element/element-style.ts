// The element's shadow stylesheet: the look's colours as custom properties, so a page can
// override them (`tminus-countdown { --tminus-background: ... }`). Nothing moves: no
// transition or animation anywhere, whatever the viewer's motion preference.
import { STYLE_TINT, styleShapeRules } from "../style-shapes";
import type { ElementLook } from "./countdown-data";

const FONTS: Record<ElementLook["font"], string> = {
  sans: "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
  mono: "ui-monospace, 'SF Mono', Menlo, Consolas, monospace",
  serif: "Georgia, 'Times New Roman', serif",
};

/** A CSS colour the look may hold (#RGB or #RRGGBB), or the fallback. */
function color(value: string | undefined, fallback: string): string {
  return value !== undefined && /^#[0-9a-fA-F]{3,8}$/.test(value) ? value : fallback;
}

/**
 * The look's style, or its panel from a server that sends none. Only a lowercase word: it
 * becomes a class and a selector, and the answer comes from the network.
 */
export function lookStyle(look: ElementLook): string {
  if (typeof look.style === "string" && /^[a-z]{1,16}$/.test(look.style)) return look.style;
  return look.panel === "plain" ? "plain" : "rounded";
}

/** The stylesheet for `look`. */
export function elementStyle(look: ElementLook): string {
  // The look's background colour, even on a transparent panel: flip cards and ring holes
  // are drawn in it, as on the hosted page.
  const bg = color(look.background_color, "#FFFFFF");
  const fg = color(look.text_color, "#111827");
  const accent = color(look.accent_color, "#2563EB");
  const dark = look.dark
    ? `@media (prefers-color-scheme: dark){:host{` +
      `--tminus-bg:${color(look.dark.background_color, "#111827")};` +
      `--tminus-fg:${color(look.dark.text_color, "#F9FAFB")};` +
      `--tminus-accent:${color(look.dark.accent_color, "#60A5FA")}}}`
    : "";
  const style = lookStyle(look);
  // The look's digit height, shrinking with a narrow viewport (four units fit 390 px).
  const px = Number.isFinite(look.font_size) ? Math.min(Math.max(look.font_size, 8), 200) : 48;
  const size = `clamp(${Math.min(px, 16)}px,8vw,${px}px)`;
  return (
    `:host{display:inline-block;max-width:100%;vertical-align:middle;` +
    `--tminus-bg:${bg};--tminus-fg:${fg};--tminus-accent:${accent}}` +
    dark +
    `.panel{box-sizing:border-box;max-width:100%;display:inline-flex;flex-direction:column;` +
    `align-items:center;padding:.6em 1em;font-family:${FONTS[look.font] ?? FONTS.sans};` +
    `background:var(--tminus-background,${look.transparent ? "transparent" : "var(--tminus-bg)"});` +
    `color:var(--tminus-color,var(--tminus-fg));` +
    (style === "rounded"
      ? `border:2px solid var(--tminus-accent);border-radius:12px;`
      : `border:0;`) +
    // The names the shared style rules draw with (style-shapes.ts).
    `--tm-bg:var(--tminus-background,var(--tminus-bg));--tm-fg:var(--tminus-color,var(--tminus-fg));` +
    `--tm-accent:var(--tminus-accent);--tm-tint:${STYLE_TINT}}` +
    `.row{display:flex;flex-wrap:nowrap;align-items:flex-start;gap:.25em;` +
    `font-variant-numeric:tabular-nums;font-size:var(--tminus-size,${size})}` +
    // A unit shrinks no narrower than its digits (a long label wraps instead): were it to, the
    // digits and their ring or box would spill over the separator while the row's scrollWidth,
    // which the fit measures, still looked as if it fitted.
    `.unit{display:flex;flex-direction:column;align-items:center;min-width:min-content}` +
    // A minimum width keeps the row still when a label changes ("hour" to "hours").
    `.value{font-weight:700;line-height:1.1;min-width:1.3em;text-align:center}` +
    `.label{font-size:max(.3em,12px);line-height:1.4;opacity:.85;text-align:center;overflow-wrap:anywhere}` +
    `.sep{line-height:1.1;color:var(--tminus-accent)}` +
    `.ended{margin:0;font-size:calc(var(--tminus-size,${size})*.6);font-weight:700}` +
    styleShapeRules(style, ".value", ".label").join("") +
    `[hidden]{display:none!important}` +
    `.sr{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;` +
    `clip:rect(0 0 0 0);white-space:nowrap;border:0}`
  );
}
