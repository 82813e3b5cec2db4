import type { RequestSource } from "@tminus/store";

// Who fetched an email image, by the User-Agent (docs/analytics.md lists these rules and
// their sources; request-source.test.ts holds the strings they were taken from).

/**
 * Apple Mail Privacy Protection fetches every image of a delivered message through Apple's
 * relays, opened or not, with the bare `Mozilla/5.0` and nothing else (Mailgun's account of
 * the prefetch, https://www.mailgun.com/blog/product/bot-detection/).
 */
const PRIVACY_PREFETCH = /^Mozilla\/5\.0$/;

/**
 * Image proxies of webmail providers, which fetch an image for a person who opened the
 * message: Gmail (`GoogleImageProxy`), Yahoo and AOL (`YahooMailProxy`), Seznam, Rambler and
 * ukr.net. The tokens are the ones matomo-org/device-detector's regexes/bots.yml matches.
 */
const IMAGE_PROXIES: readonly RegExp[] = [
  /GoogleImageProxy/,
  /YahooMailProxy/i,
  /SeznamEmailProxy/,
  /RamblerMail\/[\d.]+ \(incompatible; ImageProxy/,
  /via secureurl\.fwdcdn\.com/,
];

/**
 * Where a public view came from: a `prefetch` (a privacy prefetch, which says nothing about
 * whether anyone read the message), a `proxy` (a provider's image proxy fetching for a reader),
 * or `human` (the reader's own mail client or browser, and anything not recognised). Only
 * images are fetched by proxies and prefetchers; a page or an embed is a browser: `human`.
 */
export function requestSource(userAgent: string | null, image: boolean): RequestSource {
  if (!image || userAgent === null) return "human";
  const ua = userAgent.trim();
  if (PRIVACY_PREFETCH.test(ua)) return "prefetch";
  if (IMAGE_PROXIES.some((proxy) => proxy.test(ua))) return "proxy";
  return "human";
}
