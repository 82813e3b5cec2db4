// `<tminus-countdown src=".../t/{id}/countdown.json">`: a countdown drawn in the page itself.
// It asks the server once for the timer's timing fields and clock (countdown-data.ts), then
// runs core's own computeStatus (`@tminus/core/browser`) at every second on the server's
// clock: no iframe, no request per second, and the same answer as the server's status route,
// across DST changes too (the zone offsets come from the browser's Intl, as Node's do).
//
// The element's light DOM (an <img> of the timer's GIF) is what shows without JavaScript, or
// when the request fails; it is hidden only once a countdown is ready to replace it.
//
// Accessibility: the digits (every second) are aria-hidden; a polite live region holds the
// time in words at minutes precision, so it changes once a minute. With
// `prefers-reduced-motion: reduce` nothing on screen changes every second either: seconds are
// not shown and the digits change once a minute (there is never any animation).
//
// scripts/build-embed-element.mjs bundles this file into embed.js (countdown-element.generated.ts).
import {
  computeStatus,
  formatParts,
  splitRemaining,
  type TimeUnit,
  unitLabel,
  withoutLeadingZeroUnits,
} from "@tminus/core/browser";
import { unitStep, unitSteps } from "../../_shares";
import { SHARE_STYLES } from "../style-shapes";
import { type CountdownData, readCountdownData } from "./countdown-data";
import { elementStyle, lookStyle } from "./element-style";
import { spokenRemaining } from "./spoken";

/** The service's `/t/` prefix this copy of embed.js accepts, or null for any http(s) URL. */
declare const TMINUS_BASE: string | null;

const REDUCE = "(prefers-reduced-motion: reduce)";
/** A minute, the live region's and the reduced-motion display's step. */
const MINUTE_MS = 60_000;

// A browser without custom elements (or a script host without a DOM) defines nothing and keeps
// the image; the class must still evaluate there without throwing.
const Base: typeof HTMLElement =
  typeof HTMLElement === "undefined" ? (class {} as typeof HTMLElement) : HTMLElement;

class TminusCountdown extends Base {
  private data: CountdownData | null = null;
  /** Server clock minus the page's clock, taken once from the answer. */
  private offset = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private panel: HTMLElement | null = null;
  private row: HTMLElement | null = null;
  private endedEl: HTMLElement | null = null;
  private live: HTMLElement | null = null;
  private values: HTMLElement[] = [];
  private labels: HTMLElement[] = [];
  /** Each unit's box, and the separator before it (none before the first). */
  private boxes: HTMLElement[] = [];
  private seps: Array<HTMLElement | null> = [];
  private shownUnits: TimeUnit[] = [];
  private reduced: MediaQueryList | null = null;
  private started = false;
  /** Whether the style draws each unit's share left (rings, bars) from --p. */
  private shares = false;
  private readonly refit = (): void => this.fit();

  connectedCallback(): void {
    window.addEventListener("resize", this.refit);
    if (this.started) {
      if (this.data) this.tick();
      return;
    }
    this.started = true;
    void this.load();
  }

  disconnectedCallback(): void {
    clearTimeout(this.timer);
    window.removeEventListener("resize", this.refit);
  }

  private async load(): Promise<void> {
    const src = this.getAttribute("src");
    if (!src) return;
    let url: URL;
    try {
      url = new URL(src, document.baseURI);
    } catch {
      return;
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") return;
    if (TMINUS_BASE !== null && url.href.indexOf(TMINUS_BASE) !== 0) return;
    try {
      const sent = Date.now();
      const response = await fetch(url.href, { credentials: "omit", cache: "no-store" });
      if (!response.ok) return;
      const data = readCountdownData(await response.json());
      if (!data) return;
      // The answer was made about halfway through the request.
      this.offset = data.now - (sent + Date.now()) / 2;
      this.data = data;
    } catch {
      return; // the image stays
    }
    this.reduced = typeof matchMedia === "function" ? matchMedia(REDUCE) : null;
    this.reduced?.addEventListener?.("change", () => this.build());
    this.build();
  }

  /** (Re)draws the shadow tree for the current motion preference and starts ticking. */
  private build(): void {
    const data = this.data;
    if (!data) return;
    const root = this.shadowRoot ?? this.attachShadow({ mode: "open" });
    const look = data.look;
    let units = look.units;
    if (this.reduced?.matches) {
      units = units.filter((u) => u !== "seconds");
      if (units.length === 0) units = ["minutes"];
    }
    this.shownUnits = units;
    root.textContent = "";
    const style = document.createElement("style");
    style.textContent = elementStyle(look);
    const lookName = lookStyle(look);
    this.shares = SHARE_STYLES.has(lookName);
    const panel = el("div", `panel tm-s-${lookName}`);
    panel.setAttribute("part", "panel");
    const row = el("div", "row");
    row.setAttribute("aria-hidden", "true");
    row.setAttribute("part", "digits");
    this.values = [];
    this.labels = [];
    this.boxes = [];
    this.seps = [];
    units.forEach((unit, i) => {
      // Minimal draws no separators, as on the hosted page.
      const sep =
        i > 0 && look.separator && lookName !== "minimal"
          ? el("span", "sep", look.separator)
          : null;
      if (sep) row.append(sep);
      this.seps.push(sep);
      const box = el("span", "unit");
      this.boxes.push(box);
      box.dataset.unit = unit;
      const value = el("span", "value");
      box.append(value);
      this.values.push(value);
      if (look.show_labels) {
        const label = el("span", "label");
        box.append(label);
        this.labels.push(label);
      }
      row.append(box);
    });
    const ended = el("p", "ended", data.endedText);
    ended.hidden = true;
    ended.setAttribute("part", "ended");
    const live = el("span", "sr");
    live.setAttribute("aria-live", "polite");
    live.setAttribute("aria-atomic", "true");
    panel.append(row, ended, live);
    root.append(style, panel);
    this.panel = panel;
    this.row = row;
    this.endedEl = ended;
    this.live = live;
    this.tick();
  }

  private tick(): void {
    clearTimeout(this.timer);
    const data = this.data;
    if (!data || !this.isConnected) return;
    const now = Date.now() + this.offset;
    let status: ReturnType<typeof computeStatus>;
    try {
      status = computeStatus(data.input, now);
    } catch {
      status = data.status; // a definition this copy cannot read: the server's answer stands
    }
    this.show(status.remaining.total_seconds, status.ended);
    const type = data.input.definition.type;
    if (status.ended && (type !== "recurring" || status.final === true)) return;
    // Wake just after the shown second (or minute) changes, not on a drifting interval.
    const step = this.reduced?.matches ? MINUTE_MS : 1000;
    const wait =
      status.state === "paused" || status.target_at === null
        ? MINUTE_MS
        : ((((status.target_at - now) % step) + step) % step) + 15;
    this.timer = setTimeout(() => this.tick(), Math.min(wait, MINUTE_MS));
  }

  private show(total: number, ended: boolean): void {
    const data = this.data!;
    const look = data.look;
    if (this.row) this.row.hidden = ended;
    if (this.endedEl) this.endedEl.hidden = !ended;
    if (!ended) {
      const parts = formatParts(
        splitRemaining(total, { largestUnit: look.largest_unit, units: this.shownUnits }),
        { pad: look.pad },
      );
      parts.forEach((part, i) => {
        setText(this.values[i], part.text);
        // Rings and bars: the unit's share left, which the shared style rules draw from --p.
        if (this.shares)
          this.values[i]?.style.setProperty(
            "--p",
            String(unitStep(part.unit, part.value) / unitSteps(part.unit)),
          );
        setText(this.labels[i], unitLabel(part.unit, part.value, look.locale, look.labels));
      });
      // Leading zero units the look hides go, with the separator after them.
      const first =
        look.hide_leading_zero_units === true
          ? parts.length - withoutLeadingZeroUnits(parts).length
          : 0;
      this.boxes.forEach((box, i) => {
        box.hidden = i < first;
        const sep = this.seps[i];
        if (sep) sep.hidden = i <= first;
      });
    }
    setText(this.live, spokenRemaining(ended ? 0 : total, look, data.endedText));
    this.fit();
  }

  /**
   * Shrinks the digits until the row fits the panel. The look's size (or 8vw) fits four
   * two-digit units on a phone, but a three-character separator, a five-digit day count or
   * long labels would make the page scroll sideways. Measured, not estimated: the page's
   * fonts are the host's to choose. Reset first, so a wider window gets the full size back.
   */
  private fit(): void {
    const { row, panel } = this;
    if (!row || !panel || row.hidden) return;
    row.style.fontSize = "";
    const box = getComputedStyle(panel);
    const room = panel.clientWidth - parseFloat(box.paddingLeft) - parseFloat(box.paddingRight);
    // Labels keep a 12 px floor, so one scaling step may fall short: at most a few.
    for (let i = 0; i < 4 && row.scrollWidth > room; i++) {
      const size = parseFloat(getComputedStyle(row).fontSize);
      row.style.fontSize = `${Math.max(8, Math.floor((size * room * 100) / row.scrollWidth) / 100)}px`;
    }
  }
}

function el(tag: string, className: string, text?: string): HTMLElement {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Writes only a changed text: an unchanged live region must stay silent. */
function setText(node: HTMLElement | null | undefined, text: string): void {
  if (node && node.textContent !== text) node.textContent = text;
}

if (typeof customElements !== "undefined" && !customElements.get("tminus-countdown"))
  customElements.define("tminus-countdown", TminusCountdown);
