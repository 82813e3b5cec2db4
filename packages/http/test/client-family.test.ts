// The email-client heuristics (docs/analytics.md): real User-Agent strings of each family, and
// properties over arbitrary ones.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clientFamily } from "../src/public/client-family";

const KNOWN: [string, ReturnType<typeof clientFamily>][] = [
  [
    "Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)",
    "gmail",
  ],
  ["Mozilla/5.0", "apple_mail"],
  [
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)",
    "apple_mail",
  ],
  [
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko)",
    "apple_mail",
  ],
  ["Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17126; Pro)", "outlook"],
  ["Outlook-iOS/723.4027091.prod.iphone (4.2339.0)", "outlook"],
  ["YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html", "yahoo"],
  // Safari and Chrome are browsers, not Apple Mail.
  [
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15",
    "other",
  ],
  [
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36",
    "other",
  ],
  ["curl/8.4.0", "other"],
];

describe("clientFamily", () => {
  it.each(KNOWN)("%s -> %s", (ua, family) => {
    expect(clientFamily(ua, true)).toBe(family);
  });

  it("pages and embeds are browsers, whatever the agent; no agent is other", () => {
    fc.assert(
      fc.property(fc.string(), (ua) => {
        expect(clientFamily(ua, false)).toBe("other");
      }),
    );
    expect(clientFamily(null, true)).toBe("other");
  });

  it("a proxy's token decides wherever it appears; agents without any token are other", () => {
    const tokens = fc.constantFrom(
      ["GoogleImageProxy", "gmail"],
      ["YahooMailProxy", "yahoo"],
      ["Microsoft Outlook", "outlook"],
    );
    const filler = fc.stringMatching(/^[a-z0-9 ;/().]{0,40}$/);
    fc.assert(
      fc.property(filler, tokens, filler, (before, [token, family], after) => {
        expect(clientFamily(`${before}${token}${after}`, true)).toBe(family);
      }),
    );
    fc.assert(
      fc.property(filler, (ua) => {
        fc.pre(ua.trim() !== "" && !/outlook|msoffice|ms-office|microsoft office/i.test(ua));
        expect(clientFamily(ua, true)).toBe("other");
      }),
    );
  });
});
