// The browser side of the hosted page and the embed, inlined into each page (no
// external script). Plain ES5 so that old mail-client browsers and embeds in old
// shop themes run it. It never trusts the viewer's clock: the page carries the
// server's time, and the offset to the local clock is taken once at load.

/** The inline script. It reads its data from `<script type="application/json" id="tm-data">`. */
export const CLIENT_SCRIPT = `(function () {
  "use strict";
  var dataEl = document.getElementById("tm-data");
  if (!dataEl) return;
  var d = JSON.parse(dataEl.textContent);
  // serverNow - Date.now(): a wrong local clock shifts both sides equally.
  var offset = d.serverNow - Date.now();
  var rules = null;
  try { rules = new Intl.PluralRules(d.pluralLocale); } catch (e) { rules = null; }
  var row = document.getElementById("tm-row");
  var ended = document.getElementById("tm-ended");
  var spoken = document.getElementById("tm-spoken");
  var digits = row ? row.querySelectorAll("[data-unit]") : [];
  var labels = row ? row.querySelectorAll("[data-label]") : [];
  var groups = row ? row.querySelectorAll(".tm-group") : [];
  var befores = row ? row.querySelectorAll("[data-before]") : [];
  var lastSpoken = spoken ? spoken.textContent : "";
  var lastHeight = -1;

  function now() { return Date.now() + offset; }
  function label(unit, n) {
    var forms = d.forms[unit] || {};
    return forms[rules ? rules.select(n) : "other"] || forms.other || "";
  }
  // Same rule as the server: hidden units carry into the next shown one, the
  // smallest shown unit rounds up.
  function split(total) {
    var s = d.seconds;
    var smallest = s[s.length - 1];
    var rest = Math.ceil(total / smallest) * smallest;
    var out = [];
    for (var i = 0; i < s.length; i++) {
      var v = Math.floor(rest / s[i]);
      rest -= v * s[i];
      out.push(v);
    }
    return out;
  }
  function digitsOf(unit, v) {
    var t = String(v);
    return d.pad && unit !== "days" && t.length < 2 ? "0" + t : t;
  }
  // Minutes precision (tens of seconds in the last minute): a polite live region
  // that changed every second would talk over everything else.
  function sentence(total) {
    if (total <= 0) return d.endedText;
    var step = total >= 60 ? 60 : 10;
    var values = split(Math.ceil(total / step) * step);
    var said = [];
    for (var i = 0; i < values.length; i++) {
      if (values[i] > 0) said.push(values[i] + " " + label(d.units[i], values[i]));
    }
    if (!said.length) {
      var last = values.length - 1;
      said.push(values[last] + " " + label(d.units[last], values[last]));
    }
    return said.join(", ");
  }
  // The embed's own box, not the document: the document is at least as tall as the
  // iframe, so measuring it could never let a too-tall iframe shrink (a band under the timer).
  var box = document.getElementById("tm-embed");
  function reportHeight() {
    if (d.mode !== "embed" || window.parent === window || !box) return;
    var h = Math.ceil(box.getBoundingClientRect().height);
    if (h === lastHeight) return;
    lastHeight = h;
    // Only a height, nothing secret: any page may frame the embed and read it.
    window.parent.postMessage({ type: "tminus:height", height: h }, "*");
  }
  function show(total) {
    if (total <= 0) {
      if (row) row.hidden = true;
      if (ended) ended.hidden = false;
    } else {
      var values = split(total);
      for (var i = 0; i < values.length && i < digits.length; i++) {
        digits[i].textContent = digitsOf(d.units[i], values[i]);
        // Rings and bars: the share of the unit left (the stylesheet draws it from --p).
        if (d.steps) digits[i].style.setProperty("--p", String(Math.min(d.steps[i], values[i]) / d.steps[i]));
        if (labels[i]) labels[i].textContent = label(d.units[i], values[i]);
      }
      // Leading zero units the look hides go, with the separator after them.
      var first = 0;
      if (d.hideLeadingZeros) while (first < values.length - 1 && values[first] === 0) first++;
      for (var g = 0; g < groups.length; g++) groups[g].hidden = g < first;
      for (var b = 0; b < befores.length; b++)
        befores[b].hidden = Number(befores[b].getAttribute("data-before")) <= first;
    }
    var s = sentence(total);
    if (spoken && s !== lastSpoken) {
      spoken.textContent = s;
      lastSpoken = s;
    }
    reportHeight();
  }
  function reloadDue(t) {
    return d.reloadAt !== null && d.reloadAt > d.serverNow && t >= d.reloadAt;
  }
  function tick() {
    var t = now();
    if (reloadDue(t)) { location.reload(); return; }
    if (d.targetAt === null) {
      if (d.reloadAt !== null && d.reloadAt > d.serverNow) setTimeout(tick, Math.min(60000, d.reloadAt - t + 50));
      return;
    }
    var ms = d.targetAt - t;
    var total = ms > 0 ? Math.ceil(ms / 1000) : 0;
    show(total);
    if (total <= 0) {
      if (d.redirect) { location.replace(d.redirect); return; }
      if (d.reloadAt !== null && d.reloadAt > d.serverNow) setTimeout(tick, Math.min(60000, Math.max(250, d.reloadAt - t + 50)));
      return;
    }
    // Wake just after the shown second changes, not on a drifting 1 s interval.
    setTimeout(tick, ms - (total - 1) * 1000 + 15);
  }
  if (d.mode === "embed") {
    window.addEventListener("resize", reportHeight);
    // The font arriving, the ended image loading or a narrower frame wrapping labels
    // all change the height after the first report.
    if (typeof ResizeObserver === "function" && box) new ResizeObserver(reportHeight).observe(box);
    if (document.fonts && document.fonts.ready) document.fonts.ready.then(reportHeight);
  }
  reportHeight();
  tick();
})();`;
