// The hosted countdown page and the embed (HTML for an iframe): complete
// documents with inline CSS and script. Nothing is loaded from anywhere but the
// look's font, from the URL the caller serves it at (`urls.fonts`).

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
import { headTags } from "./head";
import { stylesheet } from "./styles";

function htmlDocument(c: Countdown, mode: "page" | "embed", body: string, head = ""): string {
  const nonce = c.nonce ? ` nonce="${escapeHtml(c.nonce)}"` : "";
  return (
    `<!doctype html>\n<html lang="${escapeHtml(c.look.locale)}">\n<head>\n` +
    `<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n` +
    // A title cannot hold an isolating element: its direction controls are dropped.
    `<title>${escapeHtml(stripBidiControls(c.name))}</title>\n${head}` +
    `<style${nonce}>\n${stylesheet(c, mode, c.fontsUrl)}\n</style>\n</head>\n<body>\n${body}\n` +
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
  const refresh =
    c.total <= 0 && c.redirect
      ? `<meta http-equiv="refresh" content="0;url=${escapeHtml(c.redirect)}">\n`
      : "";
  const cta = c.cta
    ? `\n<a class="tm-cta" href="${escapeHtml(c.cta.url)}" rel="noopener" dir="auto">${escapeHtml(c.cta.label)}</a>`
    : "";
  const body = `<main class="tm-page">\n<h1 class="tm-name" dir="auto">${escapeHtml(c.name)}</h1>\n${countdownMarkup(c)}${cta}\n</main>`;
  return htmlDocument(c, "page", body, headTags(c, c.share) + refresh);
}

/**
 * The embed: the countdown alone, for an iframe on someone else's page (see
 * {@link renderEmbedScript}). It reports its height to the parent page so the
 * embed script can size the iframe. Never redirects: it is a guest on that page.
 * @example const html = renderEmbed({ name: timer.name, look: timer.look, status, now, nonce });
 */
export function renderEmbed(input: CountdownPageInput): string {
  const c = resolveCountdown(input);
  return htmlDocument(
    c,
    "embed",
    `<div class="tm-embed" id="tm-embed">\n${countdownMarkup(c)}\n</div>`,
  );
}

/**
 * The Content-Security-Policy header that fits these pages: nothing loads but
 * the nonce'd inline script and style, https images (the ended image), and fonts
 * from the origin of `fonts` (the page's `urls.fonts`).
 * The embed may be framed anywhere; the hosted page nowhere.
 */
export function countdownCsp(
  nonce: string,
  options: { embed?: boolean; fonts?: string } = {},
): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    // Same origin too: the look's background picture is served beside the page.
    "img-src 'self' https: data:",
    ...(options.fonts ? [`font-src ${new URL(options.fonts).origin}`] : []),
    "base-uri 'none'",
    "form-action 'none'",
    options.embed ? "frame-ancestors *" : "frame-ancestors 'none'",
  ].join("; ");
}
