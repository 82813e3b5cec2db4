// The countdown markup shared by the hosted page and the embed: the server
// renders the time at `now` as plain HTML (what a browser without JavaScript
// keeps showing), plus the data the inline script needs to tick from there.
import {
  DEFAULT_ENDED,
  formatParts,
  type Look,
  type LookInput,
  labelLanguage,
  splitRemaining,
  type TimerState,
  type TimeUnit,
  UNIT_SECONDS,
  unitLabel,
  withoutLeadingZeroUnits,
} from "@tminus/core";
import { stripBidiControls } from "../_bidi";
import { resolveLookOption } from "../_look";
import { unitStep, unitSteps } from "../_shares";
import { invalid } from "../errors";
import { uploadedFamily } from "../uploads/font-stack";
import { escapeHtml, safeHttpsUrl, safeWebUrl } from "./escape";
import { SHARE_STYLES } from "./style-shapes";

/** A timer's status as core's computeStatus reports it (the fields pages use). */
export interface PageStatus {
  remaining: { total_seconds: number };
  state: TimerState;
  /** When the countdown reaches zero (epoch ms), or null when there is none. */
  target_at: number | null;
}

/** What the hosted page and the embed show. */
export interface CountdownPageInput {
  /** The timer's name: the page's title and heading. Escaped, like every string here. */
  name: string;
  /** The timer's look, complete or partial. */
  look?: Look | LookInput;
  /** The timer's `ended`: text, optional https image, optional redirect (hosted page only). */
  ended?: { text?: string; image_url?: string | null; redirect_url?: string | null };
  /** The status at `now`. */
  status: PageStatus;
  /** The server's clock when the page is rendered (epoch ms): the browser ticks from it. */
  now: number;
  /** CSP nonce for the inline script and style (see {@link countdownCsp}). */
  nonce?: string;
  /** Server time (epoch ms) at which the page reloads itself, e.g. a recurring timer's next countdown. */
  reloadAt?: number | null;
  /** Absolute http(s) URLs the pages link to; each optional. */
  urls?: PageUrls;
  /**
   * The uploaded font the look's `font_asset_id` names, as the page loads it. Without it such a
   * look shows its built-in `font`, as when the font was deleted.
   */
  uploadedFont?: PageFont;
  /**
   * Where the look's background picture (`background.asset_id`) is served: an absolute
   * http(s) URL. Without it such a look shows `background_color` alone.
   */
  backgroundImage?: { url: string };
}

/** An uploaded font on a page: where it is served, and how wide it draws. */
export interface PageFont {
  /** Absolute http(s) URL of the font file (a subset of what the look draws will do). */
  url: string;
  /**
   * The widest advance of the digits and separator in em (FontFile.widestEm), so the page
   * shrinks a wide font's row to fit a phone as it does the built-in fonts'.
   */
  widestEm: number;
}

/** Where the pages' linked resources live (see {@link CountdownPageInput.urls}). */
export interface PageUrls {
  /**
   * Where the look's font files are served by name (see `webFontFile`), ending in "/".
   * Without it the pages use system fonts.
   */
  fonts?: string;
  /** The hosted page's own URL (og:url). With `image`, the hosted page gets share tags. */
  page?: string;
  /** A still image of the timer for link previews (og:image, twitter:image): its PNG. */
  image?: string;
}

/** Checked input with everything derived that markup and script need. */
export interface Countdown {
  name: string;
  look: Look;
  endedText: string;
  endedImage: string | null;
  redirect: string | null;
  now: number;
  /** Whole seconds shown at `now`. */
  total: number;
  ticking: boolean;
  targetAt: number | null;
  nonce: string | null;
  reloadAt: number | null;
  /** Where the font files are, or null: system fonts. */
  fontsUrl: string | null;
  /** The look's uploaded font and its CSS family, or null: the built-in font. */
  uploadedFont: (PageFont & { family: string }) | null;
  /** The page and image URLs for share tags, or null: none. */
  share: { page: string; image: string } | null;
  /** The call-to-action link (hosted page), or null. */
  cta: { url: string; label: string } | null;
  /** The look's background picture URL, or null. */
  backgroundImage: string | null;
  /** Where the look's button leads (click_url, else the call to action), or null: a label. */
  buttonUrl: string | null;
  units: TimeUnit[];
  /** Plural rules locale matching core's label tables, for the browser's Intl.PluralRules. */
  pluralLocale: string;
  /** Label per unit and CLDR plural category. */
  forms: Record<string, Record<string, string>>;
}

// Every integer plural category of every CLDR rule set shows up among these.
const SAMPLES: readonly number[] = [...Array.from({ length: 1100 }, (_, i) => i), 1_000_000];

/** Validates the page input (RenderError naming the field) and derives the display data. */
export function resolveCountdown(input: CountdownPageInput): Countdown {
  if (typeof input !== "object" || input === null) throw invalid("input", "must be an object");
  if (typeof input.name !== "string" || input.name.length > 200)
    throw invalid("name", "must be a string of at most 200 characters");
  const { look } = resolveLookOption(input.look);
  const endedText = input.ended?.text ?? DEFAULT_ENDED.text;
  if (typeof endedText !== "string" || endedText.length > 200)
    throw invalid("ended.text", "must be a string of at most 200 characters");
  const { status, now } = input;
  if (typeof now !== "number" || !Number.isFinite(now))
    throw invalid("now", "must be epoch milliseconds");
  const total = status?.remaining?.total_seconds;
  if (typeof total !== "number" || !Number.isFinite(total) || total < 0)
    throw invalid("status.remaining.total_seconds", "must be a number of seconds, 0 or more");
  const nonce = input.nonce ?? null;
  if (nonce !== null && !/^[A-Za-z0-9+/=_-]{8,128}$/.test(nonce))
    throw invalid("nonce", "must be 8 to 128 base64 characters");
  const targetAt = typeof status.target_at === "number" ? status.target_at : null;
  const urls = input.urls ?? {};
  const fontsUrl = pageUrl(urls.fonts, "urls.fonts");
  if (fontsUrl !== null && !fontsUrl.endsWith("/")) throw invalid("urls.fonts", 'must end in "/"');
  const page = pageUrl(urls.page, "urls.page");
  const image = pageUrl(urls.image, "urls.image");
  const ctaUrl = safeWebUrl(look.cta?.url);
  const units = splitRemaining(1, { largestUnit: look.largest_unit, units: look.units }).map(
    (p) => p.unit,
  );
  const pluralLocale =
    labelLanguage(look.locale) === "en" && !/^en(-|$)/i.test(look.locale) ? "en" : look.locale;
  const rules = new Intl.PluralRules(pluralLocale);
  const forms: Record<string, Record<string, string>> = {};
  for (const unit of units) {
    const byCategory: Record<string, string> = {};
    for (const n of SAMPLES) {
      const category = rules.select(n);
      byCategory[category] ??= unitLabel(unit, n, look.locale, look.labels);
    }
    forms[unit] = byCategory;
  }
  return {
    name: input.name,
    look,
    endedText,
    endedImage: safeHttpsUrl(input.ended?.image_url),
    redirect: safeHttpsUrl(input.ended?.redirect_url),
    now,
    total: Math.ceil(total),
    ticking: status.state === "running" && targetAt !== null && total > 0,
    targetAt,
    nonce,
    reloadAt: typeof input.reloadAt === "number" ? input.reloadAt : null,
    fontsUrl,
    uploadedFont: pageFont(input.uploadedFont, look),
    share: page !== null && image !== null ? { page, image } : null,
    cta: look.cta && ctaUrl ? { url: ctaUrl, label: look.cta.label } : null,
    backgroundImage:
      look.background?.type === "image" && input.backgroundImage !== undefined
        ? pageUrl(input.backgroundImage?.url, "backgroundImage.url")
        : null,
    buttonUrl: safeWebUrl(look.click_url ?? undefined) ?? ctaUrl,
    units,
    pluralLocale,
    forms,
  };
}

function pageFont(font: PageFont | undefined, look: Look): Countdown["uploadedFont"] {
  if (font === undefined || look.font_asset_id === null) return null;
  const url = pageUrl(font?.url, "uploadedFont.url")!;
  const { widestEm } = font;
  if (typeof widestEm !== "number" || !(widestEm > 0 && widestEm <= 10))
    throw invalid("uploadedFont.widestEm", "must be a number of em above 0, at most 10");
  return { url, widestEm, family: uploadedFamily(look.font_asset_id) };
}

function pageUrl(url: unknown, field: string): string | null {
  if (url === undefined || url === null) return null;
  const safe = typeof url === "string" && url.length <= 2048 ? safeWebUrl(url) : null;
  if (safe === null)
    throw invalid(field, "must be an absolute http(s) URL of at most 2048 characters");
  return safe;
}

/** Label of `value` in `unit`, from the same table the browser uses. */
function label(c: Countdown, unit: TimeUnit, value: number): string {
  const byCategory = c.forms[unit] ?? {};
  return (
    byCategory[new Intl.PluralRules(c.pluralLocale).select(value)] ?? byCategory["other"] ?? ""
  );
}

/**
 * The sentence screen readers hear: minutes precision (seconds only in the last
 * minute, in steps of ten), so a polite live region speaks about once a minute
 * rather than every second. The browser script computes it the same way.
 */
export function spokenText(c: Countdown, total: number): string {
  if (total <= 0) return c.endedText;
  const step = total >= 60 ? 60 : 10;
  const rounded = Math.ceil(total / step) * step;
  const parts = splitRemaining(rounded, { largestUnit: c.look.largest_unit, units: c.units });
  const said = parts.filter((p) => p.value > 0);
  const list = said.length > 0 ? said : parts.slice(-1);
  return list.map((p) => `${p.value} ${label(c, p.unit, p.value)}`).join(", ");
}

/**
 * Digits and labels of the countdown as HTML at `total` seconds; the ended block
 * when 0. Every piece of user text sits in an element of its own with
 * `dir="auto"`: its direction comes from its own first strong character, and
 * whatever direction controls it holds end with the element (an isolate), so
 * they cannot reorder the digits and labels around it.
 */
export function countdownMarkup(c: Countdown): string {
  const ended = c.total <= 0;
  const parts = formatParts(
    splitRemaining(c.total, { largestUnit: c.look.largest_unit, units: c.units }),
    { pad: c.look.pad },
  );
  // Every unit is in the markup, so the script can show the ones that go on counting; the
  // leading zeros the look hides are hidden, with the separator after them.
  const first = hiddenLeading(c, parts);
  const groups = parts
    .map((p, i) => {
      const off = i < first ? " hidden" : "";
      const sepOff = i <= first ? " hidden" : "";
      const sep =
        i > 0 && c.look.separator !== "" && c.look.style !== "minimal"
          ? `<span class="tm-sep" dir="auto" data-before="${i}"${sepOff}>${escapeHtml(c.look.separator)}</span>`
          : i > 0
            ? `<span class="tm-gap" data-before="${i}"${sepOff}></span>`
            : "";
      const lab = c.look.show_labels
        ? `<span class="tm-label" dir="auto" data-label="${p.unit}">${escapeHtml(label(c, p.unit, p.value))}</span>`
        : "";
      return `${sep}<span class="tm-group"${off}><span class="tm-digits" data-unit="${p.unit}">${p.text}</span>${lab}</span>`;
    })
    .join("");
  const image = c.endedImage
    ? // An attribute cannot hold an isolating element: the alt text loses its direction controls.
      `<img class="tm-ended-image" src="${escapeHtml(c.endedImage)}" alt="${escapeHtml(stripBidiControls(c.endedText))}" loading="lazy">`
    : "";
  const { heading, subheading, button } = c.look;
  const head = heading
    ? `<p class="tm-heading" dir="auto">${escapeHtml(stripBidiControls(heading.text))}</p>`
    : "";
  const sub = subheading
    ? `<p class="tm-subheading" dir="auto">${escapeHtml(stripBidiControls(subheading.text))}</p>`
    : "";
  const words = button ? escapeHtml(stripBidiControls(button.label)) : "";
  const btn = !button
    ? ""
    : c.buttonUrl
      ? `<a class="tm-button" href="${escapeHtml(c.buttonUrl)}" rel="noopener" dir="auto">${words}</a>`
      : `<span class="tm-button" dir="auto">${words}</span>`;
  return (
    `<div class="tm-timer tm-s-${c.look.style}" id="tm-timer" role="timer" aria-live="polite" aria-atomic="true">` +
    head +
    `<span class="tm-sr" id="tm-spoken" dir="auto">${escapeHtml(spokenText(c, c.total))}</span>` +
    `<div class="tm-row" id="tm-row" aria-hidden="true"${ended ? " hidden" : ""}>${groups}</div>` +
    `<div class="tm-ended" id="tm-ended" aria-hidden="true"${ended ? "" : " hidden"}>` +
    `${image}<span class="tm-ended-text" dir="auto">${escapeHtml(c.endedText)}</span></div>` +
    sub +
    btn +
    `</div>`
  );
}

/** How many leading units the look hides at these values (0 when it hides none). */
export function hiddenLeading(c: Countdown, parts: ReadonlyArray<{ value: number }>): number {
  return c.look.hide_leading_zero_units ? parts.length - withoutLeadingZeroUnits(parts).length : 0;
}

/** What the browser script reads from the page's JSON block. */
export function scriptData(c: Countdown, mode: "page" | "embed"): Record<string, unknown> {
  return {
    mode,
    serverNow: c.now,
    targetAt: c.ticking ? c.targetAt : null,
    total: c.total,
    units: c.units,
    seconds: c.units.map((u) => UNIT_SECONDS[u]),
    largest: c.look.largest_unit,
    pad: c.look.pad,
    hideLeadingZeros: c.look.hide_leading_zero_units,
    pluralLocale: c.pluralLocale,
    forms: c.forms,
    endedText: c.endedText,
    redirect: mode === "page" ? c.redirect : null,
    reloadAt: c.reloadAt,
    steps: SHARE_STYLES.has(c.look.style) ? c.units.map(unitSteps) : null,
  };
}

/** The share each unit's ring or bar shows at `total` seconds, for the first paint. */
export function unitShares(c: Countdown): Array<{ unit: TimeUnit; share: number }> {
  const parts = splitRemaining(c.total, { largestUnit: c.look.largest_unit, units: c.units });
  return parts.map((p) => {
    return { unit: p.unit, share: unitStep(p.unit, p.value) / unitSteps(p.unit) };
  });
}
