// The hosted page's <head> extras: a favicon in the look's colours, and the tags
// that make a shared link unfurl (Open Graph, Twitter card) with the timer's PNG.
import { stripBidiControls } from "../_bidi";
import { type Countdown, spokenText } from "./countdown";
import { escapeHtml } from "./escape";
import { readableOn } from "./styles";

/**
 * A stopwatch in the brand (or accent) colour as an SVG data URI: the page loads no
 * file for it, and each timer's tab shows its own colour.
 */
export function faviconDataUri(c: Countdown): string {
  const fill = c.look.brand_color ?? c.look.accent_color;
  const hand = readableOn(fill);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">` +
    `<rect x="25" y="2" width="14" height="8" rx="3" fill="${fill}"/>` +
    `<circle cx="32" cy="36" r="26" fill="${fill}"/>` +
    `<path d="M32 20v16l10 7" fill="none" stroke="${hand}" stroke-width="6" stroke-linecap="round" stroke-linejoin="round"/>` +
    `</svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

/** What a shared link's preview needs: the page's own URL and a picture of it. */
export interface ShareUrls {
  page: string;
  image: string;
}

/**
 * The favicon, theme colour, description, and (with `share`) Open Graph and Twitter card
 * tags. Attribute values are escaped like all user text; attributes cannot hold an
 * isolating element, so direction controls are dropped from the name and description.
 */
export function headTags(c: Countdown, share: ShareUrls | null): string {
  const title = escapeHtml(stripBidiControls(c.name));
  const description = escapeHtml(stripBidiControls(spokenText(c, c.total)));
  const tags = [
    `<link rel="icon" type="image/svg+xml" href="${escapeHtml(faviconDataUri(c))}">`,
    `<meta name="theme-color" content="${c.look.brand_color ?? c.look.background_color}">`,
    `<meta name="description" content="${description}">`,
  ];
  if (share) {
    const page = escapeHtml(share.page);
    const image = escapeHtml(share.image);
    tags.push(
      `<meta property="og:type" content="website">`,
      `<meta property="og:title" content="${title}">`,
      `<meta property="og:description" content="${description}">`,
      `<meta property="og:url" content="${page}">`,
      `<meta property="og:image" content="${image}">`,
      `<meta property="og:image:alt" content="${description}">`,
      `<meta name="twitter:card" content="summary_large_image">`,
      `<meta name="twitter:title" content="${title}">`,
      `<meta name="twitter:description" content="${description}">`,
      `<meta name="twitter:image" content="${image}">`,
    );
  }
  return `${tags.join("\n")}\n`;
}
