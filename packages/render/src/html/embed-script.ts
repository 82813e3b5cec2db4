// The script a shop page includes to show an embed where it put a `<div>`.
import { PUBLIC_PREFIX } from "@tminus/core";
import { COUNTDOWN_ELEMENT_SCRIPT } from "./countdown-element.generated";

/** Options of {@link renderEmbedScript}. */
export interface EmbedScriptOptions {
  /**
   * The service's public base URL (e.g. "https://shop.example/countdown"): only its timers'
   * URLs (under `/t/` of it) are framed, and only frames of its origin may resize themselves,
   * so a page cannot be tricked into framing something else through our script.
   * Default: any http(s) URL.
   */
  origin?: string;
}

/**
 * A small script that replaces each `<div data-tminus-timer="EMBED_URL">` with
 * an iframe of that URL (the div's own content is the fallback without
 * JavaScript, e.g. the GIF), and sizes the iframe to the height the embed reports.
 * It also defines `<tminus-countdown src=".../t/ID/countdown.json">`, a countdown drawn in the
 * page itself from one request (element/countdown-element.ts), under the same origin rule.
 * @example
 * // <div data-tminus-timer="https://timers.example.com/t/tmr_123/embed"><img src=".../t/tmr_123.gif" alt=""></div>
 * // <script async src="https://timers.example.com/embed.js"></script>
 * new Response(renderEmbedScript({ origin: "https://timers.example.com" }), { headers: { "content-type": "text/javascript" } });
 */
export function renderEmbedScript(options: EmbedScriptOptions = {}): string {
  let origin: string | null = null;
  let base: string | null = null;
  if (options.origin !== undefined) {
    const url = new URL(options.origin);
    if (url.protocol !== "https:" && url.protocol !== "http:")
      throw new Error("origin must be an http(s) origin");
    origin = url.origin;
    base = origin + url.pathname.replace(/\/+$/, "") + PUBLIC_PREFIX;
  }
  return `/* tminus embed */
(function () {
  "use strict";
  var ORIGIN = ${JSON.stringify(origin)};
  var BASE = ${JSON.stringify(base)};
  var frames = [];
  function mount(div) {
    if (div.getAttribute("data-tminus-mounted")) return;
    var url;
    try { url = new URL(div.getAttribute("data-tminus-timer"), document.baseURI); } catch (e) { return; }
    if (url.protocol !== "https:" && url.protocol !== "http:") return;
    if (BASE !== null && url.href.indexOf(BASE) !== 0) return;
    var frame = document.createElement("iframe");
    frame.src = url.href;
    frame.title = div.getAttribute("data-tminus-title") || "Countdown";
    frame.setAttribute("loading", "lazy");
    frame.setAttribute("scrolling", "no");
    frame.setAttribute("referrerpolicy", "strict-origin-when-cross-origin");
    frame.style.cssText = "display:block;width:100%;border:0;overflow:hidden;height:" +
      (parseInt(div.getAttribute("data-tminus-height"), 10) || 160) + "px";
    div.setAttribute("data-tminus-mounted", "1");
    while (div.firstChild) div.removeChild(div.firstChild);
    div.appendChild(frame);
    frames.push({ frame: frame, origin: url.origin });
  }
  function scan() {
    var divs = document.querySelectorAll("div[data-tminus-timer]");
    for (var i = 0; i < divs.length; i++) mount(divs[i]);
  }
  // Only our own iframes may resize themselves: the message must come from the frame's
  // window and from the origin of the URL it was given; and only within sane bounds.
  window.addEventListener("message", function (event) {
    var data = event.data;
    if (!data || data.type !== "tminus:height") return;
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].frame.contentWindow !== event.source) continue;
      if (event.origin !== frames[i].origin) return;
      var h = Math.round(Number(data.height));
      if (h >= 20 && h <= 2000) frames[i].frame.style.height = h + "px";
    }
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", scan);
  else scan();
})();
(function (TMINUS_BASE) {
${COUNTDOWN_ELEMENT_SCRIPT}
})(${JSON.stringify(base)});
`;
}
