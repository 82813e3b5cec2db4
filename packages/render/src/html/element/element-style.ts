// The element's shadow stylesheet: the look's colours as custom properties, so a page can
// override them (`tminus-countdown { --tminus-background: ... }`). Nothing moves: no
// transition or animation anywhere, whatever the viewer's motion preference.
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

/** The stylesheet for `look`. */
export function elementStyle(look: ElementLook): string {
  const bg = look.transparent ? "transparent" : color(look.background_color, "#FFFFFF");
  const fg = color(look.text_color, "#111827");
  const accent = color(look.accent_color, "#2563EB");
  const dark = look.dark
    ? `@media (prefers-color-scheme: dark){:host{` +
      `--tminus-bg:${look.transparent ? "transparent" : color(look.dark.background_color, "#111827")};` +
      `--tminus-fg:${color(look.dark.text_color, "#F9FAFB")};` +
      `--tminus-accent:${color(look.dark.accent_color, "#60A5FA")}}}`
    : "";
  const rounded = look.panel === "rounded";
  // The look's digit height, shrinking with a narrow viewport (four units fit 390 px).
  const px = Number.isFinite(look.font_size) ? Math.min(Math.max(look.font_size, 8), 200) : 48;
  const size = `clamp(${Math.min(px, 16)}px,8vw,${px}px)`;
  return (
    `:host{display:inline-block;max-width:100%;vertical-align:middle;` +
    `--tminus-bg:${bg};--tminus-fg:${fg};--tminus-accent:${accent}}` +
    dark +
    `.panel{box-sizing:border-box;max-width:100%;display:inline-flex;flex-direction:column;` +
    `align-items:center;padding:.6em 1em;font-family:${FONTS[look.font] ?? FONTS.sans};` +
    `background:var(--tminus-background,var(--tminus-bg));color:var(--tminus-color,var(--tminus-fg));` +
    (rounded ? `border:2px solid var(--tminus-accent);border-radius:14px}` : `border:0}`) +
    `.row{display:flex;flex-wrap:nowrap;align-items:flex-start;gap:.25em;` +
    `font-variant-numeric:tabular-nums;font-size:var(--tminus-size,${size})}` +
    `.unit{display:flex;flex-direction:column;align-items:center;min-width:1.3em}` +
    `.value{font-weight:700;line-height:1.1}` +
    `.label{font-size:max(.3em,12px);line-height:1.4;opacity:.85}` +
    `.sep{line-height:1.1;color:var(--tminus-accent)}` +
    `.ended{margin:0;font-size:calc(var(--tminus-size,${size})*.6);font-weight:700}` +
    `[hidden]{display:none!important}` +
    `.sr{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;` +
    `clip:rect(0 0 0 0);white-space:nowrap;border:0}`
  );
}
