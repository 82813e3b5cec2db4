// The hosted countdown page and the embed (HTML for an iframe): complete
// documents with inline CSS and script, no external scripts or fonts.

import { stripBidiControls } from "../_bidi";
import { CLIENT_SCRIPT } from "./client";
import {
  type Countdown,
  type CountdownPageInput,
  countdownMarkup,
  resolveCountdown,
  scriptData,
} from "./countdown";
import { escapeHtml, jsonForScript } from "./escape";

// System fonts only: the page loads nothing from anywhere. A viewer with the
// image fonts installed gets them first.
const FONT_STACKS = {
  sans: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  mono: '"Roboto Mono", ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  serif: 'Lora, Georgia, Cambria, "Times New Roman", Times, serif',
} as const;

// Colours reach CSS only after core's schema checked them; this guards the
// stylesheet even so (a colour is the one user value that is not escaped text).
function color(value: string): string {
  if (!/^#[0-9A-Fa-f]{6}$/.test(value)) throw new Error(`not a colour: ${value}`);
  return value;
}

function stylesheet(c: Countdown, mode: "page" | "embed"): string {
  const { look } = c;
  const f = look.font_size;
  const vars = (bg: string, fg: string, accent: string) =>
    `--tm-bg:${color(bg)};--tm-fg:${color(fg)};--tm-accent:${color(accent)};`;
  const dark = look.dark
    ? `@media (prefers-color-scheme: dark){:root{${vars(look.dark.background_color, look.dark.text_color, look.dark.accent_color)}}}`
    : "";
  const pageBackground =
    mode === "embed" ? (look.transparent ? "transparent" : "var(--tm-bg)") : "var(--tm-bg)";
  const panel = look.transparent ? "transparent" : "var(--tm-bg)";
  const border =
    look.panel === "rounded" ? "border:2px solid var(--tm-accent);border-radius:12px;" : "";
  return [
    `:root{${vars(look.background_color, look.text_color, look.accent_color)}color-scheme:${look.dark ? "light dark" : "light"}}`,
    dark,
    "*{box-sizing:border-box}",
    `html,body{margin:0;background:${pageBackground};color:var(--tm-fg);font-family:${FONT_STACKS[look.font]}}`,
    ".tm-page{min-height:100vh;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:24px;padding:24px}",
    ".tm-name{margin:0;font-size:clamp(20px,4vw,32px);font-weight:600;text-align:center;overflow-wrap:anywhere}",
    ".tm-embed{display:flex;justify-content:center;padding:4px}",
    `.tm-timer{display:inline-flex;flex-direction:column;align-items:center;max-width:100%;padding:${Math.round(f * 0.4)}px ${Math.round(f * 0.6)}px;background:${panel};${border}}`,
    ".tm-row{display:flex;align-items:flex-start;justify-content:center;font-variant-numeric:tabular-nums}",
    // A minimum width keeps the row still when a label changes ("hour" to "hours").
    `.tm-group{display:flex;flex-direction:column;align-items:center;min-width:${Math.round(f * 1.4)}px}`,
    `.tm-digits,.tm-sep{font-size:min(${f}px,11vw);font-weight:700;line-height:1.15}`,
    ".tm-sep{color:var(--tm-accent);padding:0 .12em;position:relative;top:-.06em}",
    ".tm-gap{width:.4em}",
    `.tm-label{font-size:max(11px,min(${Math.round(f * 0.3)}px,3.5vw));line-height:1.3}`,
    `.tm-ended{display:flex;flex-direction:column;align-items:center;gap:12px;text-align:center;font-size:min(${f}px,9vw);font-weight:700;line-height:1.2;overflow-wrap:anywhere}`,
    ".tm-ended-image{max-width:100%;height:auto}",
    ".tm-sr{position:absolute;width:1px;height:1px;margin:-1px;padding:0;border:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}",
    "[hidden]{display:none!important}",
  ]
    .filter(Boolean)
    .join("\n");
}

function htmlDocument(c: Countdown, mode: "page" | "embed", body: string, head = ""): string {
  const nonce = c.nonce ? ` nonce="${escapeHtml(c.nonce)}"` : "";
  return (
    `<!doctype html>\n<html lang="${escapeHtml(c.look.locale)}">\n<head>\n` +
    `<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n` +
    // A title cannot hold an isolating element: its direction controls are dropped.
    `<title>${escapeHtml(stripBidiControls(c.name))}</title>\n${head}` +
    `<style${nonce}>\n${stylesheet(c, mode)}\n</style>\n</head>\n<body>\n${body}\n` +
    `<script type="application/json" id="tm-data">${jsonForScript(scriptData(c, mode))}</script>\n` +
    `<script${nonce}>\n${CLIENT_SCRIPT}\n</script>\n</body>\n</html>\n`
  );
}

/**
 * The hosted countdown page: the timer's name and its live countdown, ticking
 * in the browser from the server's clock, readable without JavaScript. After the
 * end it shows the ended text and image, or goes to the redirect URL.
 * @example
 * const html = renderHostedPage({ name: timer.name, look: timer.look, ended: timer.ended, status, now, nonce });
 * return new Response(html, { headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": countdownCsp(nonce) } });
 */
export function renderHostedPage(input: CountdownPageInput): string {
  const c = resolveCountdown(input);
  // Ended already: without JavaScript a meta refresh still takes the viewer on.
  const head =
    c.total <= 0 && c.redirect
      ? `<meta http-equiv="refresh" content="0;url=${escapeHtml(c.redirect)}">\n`
      : "";
  const body = `<main class="tm-page">\n<h1 class="tm-name" dir="auto">${escapeHtml(c.name)}</h1>\n${countdownMarkup(c)}\n</main>`;
  return htmlDocument(c, "page", body, head);
}

/**
 * The embed: the countdown alone, for an iframe on someone else's page (see
 * {@link renderEmbedScript}). It reports its height to the parent page so the
 * embed script can size the iframe. Never redirects: it is a guest on that page.
 * @example const html = renderEmbed({ name: timer.name, look: timer.look, status, now, nonce });
 */
export function renderEmbed(input: CountdownPageInput): string {
  const c = resolveCountdown(input);
  return htmlDocument(c, "embed", `<div class="tm-embed">\n${countdownMarkup(c)}\n</div>`);
}

/**
 * The Content-Security-Policy header that fits these pages: nothing loads but
 * the nonce'd inline script and style, and https images (the ended image).
 * The embed may be framed anywhere; the hosted page nowhere.
 */
export function countdownCsp(nonce: string, options: { embed?: boolean } = {}): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "img-src https: data:",
    "base-uri 'none'",
    "form-action 'none'",
    options.embed ? "frame-ancestors *" : "frame-ancestors 'none'",
  ].join("; ");
}
