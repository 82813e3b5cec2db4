import type { ClientFamily } from "@tminus/store";

// Each proxy or client names itself in the User-Agent; docs/analytics.md lists these rules.
const GMAIL = /GoogleImageProxy/;
const YAHOO = /YahooMailProxy/i;
const OUTLOOK = /Microsoft Outlook|MSOffice|Microsoft Office\/|ms-office|Outlook-(iOS|Android)/i;
// Apple Mail's privacy proxy fetches every image with exactly this, and nothing else.
const APPLE_PROXY = /^Mozilla\/5\.0$/;
// Apple Mail itself: WebKit on an Apple device without a browser's Safari/Chrome/... token.
const APPLE_WEBKIT = /\((Macintosh|iPhone|iPad)[^)]*\) AppleWebKit\/[\d.]+ \(KHTML, like Gecko\)$/;

/**
 * The email client family a public view came from, from its User-Agent. Only images are
 * fetched by mail clients and their proxies: a page or an embed is a browser, `other`.
 */
export function clientFamily(userAgent: string | null, image: boolean): ClientFamily {
  if (!image || userAgent === null) return "other";
  const ua = userAgent.trim();
  if (GMAIL.test(ua)) return "gmail";
  if (YAHOO.test(ua)) return "yahoo";
  if (OUTLOOK.test(ua)) return "outlook";
  if (APPLE_PROXY.test(ua) || APPLE_WEBKIT.test(ua)) return "apple_mail";
  return "other";
}
